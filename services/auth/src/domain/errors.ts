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
