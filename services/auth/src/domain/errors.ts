/** auth holds no credentials for the account named. */
export class AccountNotConnected extends Error {
  override name = 'AccountNotConnected';
  constructor(readonly accountId: string) {
    super(`account ${accountId} is not connected in auth`);
  }
}

/** A webhook operation that needs the app owner's user context, with no owner named or configured. */
export class OwnerUnknown extends Error {
  override name = 'OwnerUnknown';
}

/** An Account Activity subscription needs the webhook auth registered, and there is none. */
export class NoWebhookRegistered extends Error {
  override name = 'NoWebhookRegistered';
}

/**
 * auth makes Account Activity calls in an account's OAuth 1.0a user context only; an account
 * connected with OAuth 2.0 is subscribed through the X Activity API.
 */
export class NeedsOAuth1 extends Error {
  override name = 'NeedsOAuth1';
  constructor(readonly accountId: string) {
    super(
      `account ${accountId} is connected with OAuth 2.0, and auth subscribes it to the Account Activity API in OAuth 1.0a user context only: subscribe it through the X Activity API (auth's \`cli xaa subscribe ${accountId}\`), or connect it with OAuth 1.0a`,
    );
  }
}
