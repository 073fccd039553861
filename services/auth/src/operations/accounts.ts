import type { Logger } from '@crm/logging';
import type { AccessToken, AccountStore, AccountSummary, OAuth2Tokens } from '../adapters/accounts';
import type { ConnectionProtocol, ConnectionRequests, OpenResult } from '../adapters/connection-requests';
import type { AuthEvents } from '../adapters/events';
import type { PlatformClient, Signer } from '../adapters/platform/client';
import { newState, OAUTH2_SCOPES, pkcePair, type OAuth2TokenEndpoint } from '../adapters/platform/oauth2';
import { meterLookup } from '../domain/usage';
import type { UsageMeter } from './usage';
import { PlatformRejected } from '../domain/platform-errors';

export interface AccountServiceOptions {
  envName: string;
  consumerKey: string;
  /** The platform's authorize page (OAuth 1.0a). */
  authorizeUrl: string;
  /** The platform's OAuth 2.0 consent page, and the app's OAuth 2.0 client id. */
  oauth2AuthorizeUrl: string;
  oauth2ClientId: string;
  /** auth's OAuth callback, as the browser reaches it. */
  callbackUrl: () => string;
  /** auth's page that opens a start link (binding the browser), as the browser reaches it. */
  startUrl: () => string;
  connectionTtlSeconds: number;
}

/** How an OAuth callback ended; everything but `connected` stored nothing. */
export type CallbackOutcome =
  | { status: 'connected'; account: AccountSummary }
  | { status: 'denied' | 'unknown' | 'unbound' | 'replayed' | 'expired' | 'invalid' }
  | { status: 'failed'; reason: string };

/** The platform did not do its part of a connection (or an import); nothing was stored. */
export class ConnectionFailed extends Error {
  override name = 'ConnectionFailed';
}

/** Imported credentials the platform does not accept, or that belong to another account. */
export class CredentialsRefused extends Error {
  override name = 'CredentialsRefused';
  constructor(
    readonly code: 'invalid_credentials' | 'account_mismatch',
    message: string,
  ) {
    super(message);
  }
}

interface VerifiedUser {
  id_str: string;
  screen_name: string;
  name?: string;
}

/** The browser came back from the platform's page: OAuth 1.0a (`oauth_token`, `oauth_verifier` or `denied`) or OAuth 2.0 (`state` with `code` or `error`). */
export interface CallbackQuery {
  oauth_token?: string;
  oauth_verifier?: string;
  denied?: string;
  state?: string;
  code?: string;
  error?: string;
}

/**
 * Connecting accounts (three-legged OAuth 1.0a, OAuth 2.0 Authorization Code with PKCE, or importing a token pair), listing and
 * removing them, and noticing when one must be connected again. Every change that others
 * mirror is announced as an account event, enqueued in the transaction that stores it.
 */
export class AccountService {
  constructor(
    private readonly deps: {
      accounts: AccountStore;
      requests: ConnectionRequests;
      platform: PlatformClient;
      /** The OAuth 2.0 token endpoint (code exchange). */
      tokens: OAuth2TokenEndpoint;
      events: AuthEvents;
      logger: Logger;
      /** Removes the account's Account Activity subscription; false when it had none. */
      unsubscribe: (accountId: string) => Promise<boolean>;
      /** Prices the user read that verifies a connection (`GET /2/users/me`) like every other call of the account. */
      meter?: Pick<UsageMeter, 'charge'>;
    },
    private readonly options: AccountServiceOptions,
  ) {}

  /**
   * Asks the platform for a request token with our callback. The CRM principal that asked gets
   * a one-time start link on auth (not the platform's page): the browser that opens it is the
   * only one whose callback can complete or cancel the connection.
   */
  async startConnection(protocol: ConnectionProtocol = 'oauth1'): Promise<{ authorizeUrl: string; expiresAt: string }> {
    if (protocol === 'oauth2') return this.startOAuth2Connection();
    const answer = await this.deps.platform.call({ method: 'POST', path: '/oauth/request_token' }, { kind: 'consumer', oauth: { oauth_callback: this.options.callbackUrl() } });
    const form = (answer.data ?? {}) as Record<string, string>;
    if (form.oauth_callback_confirmed !== 'true') throw new ConnectionFailed('the platform did not confirm the callback (oauth_callback_confirmed is not true)');
    if (!form.oauth_token || !form.oauth_token_secret) throw new ConnectionFailed('the platform answered without a request token');
    const platformPage = new URL(this.options.authorizeUrl);
    platformPage.searchParams.set('oauth_token', form.oauth_token);
    return this.keepRequest('oauth1', form.oauth_token, form.oauth_token_secret, platformPage);
  }

  /**
   * OAuth 2.0 Authorization Code with PKCE: nothing is asked of the platform yet. The consent
   * page's URL carries a fresh state and the S256 challenge of a code_verifier kept sealed;
   * as for OAuth 1.0a, the CRM gets a one-time start link that binds the agent's browser.
   */
  private async startOAuth2Connection(): Promise<{ authorizeUrl: string; expiresAt: string }> {
    const state = newState();
    const { verifier, challenge } = pkcePair();
    const platformPage = new URL(this.options.oauth2AuthorizeUrl);
    for (const [name, value] of Object.entries({
      response_type: 'code',
      client_id: this.options.oauth2ClientId,
      redirect_uri: this.options.callbackUrl(),
      scope: OAUTH2_SCOPES.join(' '),
      state,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    })) {
      platformPage.searchParams.set(name, value);
    }
    return this.keepRequest('oauth2', state, verifier, platformPage);
  }

  /** Keeps a started connection (request token or state, with its secret) and makes its one-time start link. */
  private async keepRequest(protocol: ConnectionProtocol, key: string, secret: string, platformPage: URL): Promise<{ authorizeUrl: string; expiresAt: string }> {
    const { expiresAt, startLink } = await this.deps.requests.create({
      protocol,
      envName: this.options.envName,
      key,
      secret,
      authorizeUrl: platformPage.toString(),
      ttlSeconds: this.options.connectionTtlSeconds,
    });
    const authorizeUrl = new URL(this.options.startUrl());
    authorizeUrl.searchParams.set('link', startLink);
    return { authorizeUrl: authorizeUrl.toString(), expiresAt: expiresAt.toISOString() };
  }

  /** A browser opened a start link: bind it (the caller sets the cookie) and send it to the platform's page. */
  openStartLink(link: string): Promise<OpenResult> {
    return this.deps.requests.open(link);
  }

  /**
   * The browser came back from the authorize page: exchange the verifier (OAuth 1.0a) or the
   * code (OAuth 2.0, recognised by its `state`) for the account's tokens.
   */
  async completeConnection(query: CallbackQuery, binding: (requestKey: string) => string | undefined): Promise<CallbackOutcome> {
    if (query.state !== undefined && query.oauth_token === undefined && query.denied === undefined) return this.completeOAuth2Connection(query, binding);
    if (query.denied) {
      // The request is over (a later callback with it is a replay), unless this browser did not start it.
      const claim = await this.deps.requests.claim(query.denied, binding(query.denied), 'oauth1');
      return { status: claim.status === 'unbound' || claim.status === 'unknown' ? claim.status : 'denied' };
    }
    if (!query.oauth_token || !query.oauth_verifier) return { status: 'invalid' };
    const claim = await this.deps.requests.claim(query.oauth_token, binding(query.oauth_token), 'oauth1');
    if (claim.status !== 'claimed') return { status: claim.status };

    let token: AccessToken;
    let user: VerifiedUser;
    try {
      const answer = await this.deps.platform.call(
        { method: 'POST', path: '/oauth/access_token' },
        { kind: 'request-token', token: { key: query.oauth_token, secret: claim.secret }, oauth: { oauth_verifier: query.oauth_verifier } },
      );
      const form = (answer.data ?? {}) as Record<string, string>;
      if (!form.oauth_token || !form.oauth_token_secret || !form.user_id) throw new ConnectionFailed('the platform answered without an access token');
      token = { key: form.oauth_token, secret: form.oauth_token_secret };
      user = await this.verify(token);
      if (user.id_str !== form.user_id) throw new ConnectionFailed('the token belongs to another user than the platform said');
    } catch (error) {
      this.deps.logger.warn('connection could not be completed', { reason: (error as Error).message });
      return { status: 'failed', reason: (error as Error).message };
    }
    try {
      return { status: 'connected', account: await this.store(user, token, 'oauth') };
    } catch (error) {
      // Stored and announced together or not at all.
      this.deps.logger.error('connection could not be stored', { accountId: user.id_str, reason: (error as Error).message });
      return { status: 'failed', reason: 'auth could not store the connection' };
    }
  }

  /**
   * The OAuth 2.0 callback (`state` with `code`, or `error` when the person cancelled): the
   * state's request is used up, the code exchanged with its code_verifier, the user read with
   * `GET /2/users/me`, and the account stored and announced.
   */
  private async completeOAuth2Connection(query: CallbackQuery, binding: (requestKey: string) => string | undefined): Promise<CallbackOutcome> {
    const state = query.state ?? '';
    if (!state || (!query.code && !query.error)) return { status: 'invalid' };
    const claim = await this.deps.requests.claim(state, binding(state), 'oauth2');
    if (query.error) return { status: claim.status === 'unbound' || claim.status === 'unknown' ? claim.status : 'denied' };
    if (claim.status !== 'claimed') return { status: claim.status };

    let tokens: OAuth2Tokens;
    let user: VerifiedUser;
    try {
      tokens = await this.deps.tokens.exchangeCode(query.code!, claim.secret, this.options.callbackUrl());
      user = await this.me({ kind: 'oauth2-user', accessToken: tokens.accessToken });
    } catch (error) {
      this.deps.logger.warn('OAuth 2.0 connection could not be completed', { reason: (error as Error).message });
      return { status: 'failed', reason: (error as Error).message };
    }
    try {
      const account = await this.deps.events.storeAndAnnounce(async (client) => {
        const stored = await this.deps.accounts.saveOAuth2({ accountId: user.id_str, screenName: user.screen_name, name: user.name ?? null, envName: this.options.envName, consumerKey: this.options.consumerKey, tokens }, client);
        await this.deps.events.accountConnected(client, { ...this.view(stored), name: stored.name, via: 'oauth', connectedAt: stored.connectedAt });
        return stored;
      });
      this.deps.logger.info('account connected', { accountId: account.accountId, screenName: account.screenName, via: 'oauth', protocol: 'oauth2' });
      return { status: 'connected', account };
    } catch (error) {
      this.deps.logger.error('connection could not be stored', { accountId: user.id_str, reason: (error as Error).message });
      return { status: 'failed', reason: 'auth could not store the connection' };
    }
  }

  /** Imports a token pair made elsewhere, once the platform confirmed it is `accountId`'s. */
  async importCredentials(accountId: string, token: AccessToken): Promise<AccountSummary> {
    let user: VerifiedUser;
    try {
      user = await this.verify(token);
    } catch (error) {
      if (error instanceof PlatformRejected && (error.status === 401 || error.status === 403)) {
        throw new CredentialsRefused('invalid_credentials', `the platform does not accept this token pair: ${error.platformMessage}`);
      }
      throw error;
    }
    if (user.id_str !== accountId) throw new CredentialsRefused('account_mismatch', `the token pair belongs to account ${user.id_str}, not ${accountId}`);
    return this.store(user, token, 'import');
  }

  list(): Promise<AccountSummary[]> {
    return this.deps.accounts.list();
  }

  find(accountId: string): Promise<AccountSummary | null> {
    return this.deps.accounts.find(accountId);
  }

  /** Unsubscribes the account, forgets its credentials and says so; false when auth did not know it. */
  async remove(accountId: string): Promise<boolean> {
    const account = await this.deps.accounts.find(accountId);
    if (!account) return false;
    await this.deps.unsubscribe(accountId); // with the app's bearer token: works even when the account's token no longer does
    return this.deps.events.storeAndAnnounce(async (client) => {
      // A concurrent removal that deleted the row first has already announced it.
      if (!(await this.deps.accounts.delete(accountId, client))) return false;
      await this.deps.events.accountDisconnected(client, { ...this.view(account), reason: 'removed', disconnectedAt: new Date().toISOString() });
      return true;
    });
  }

  /** The platform refused the account's token (401 code 89): mark it and tell, once, in one transaction. */
  async tokenRefused(accountId: string, error: PlatformRejected): Promise<void> {
    await this.deps.events.storeAndAnnounce(async (client) => {
      const account = await this.deps.accounts.markNeedsReconnect(accountId, error.platformMessage, client);
      if (!account) return;
      this.deps.logger.warn('account needs a reconnect', { accountId, platformCode: error.platformCode });
      await this.deps.events.accountNeedsReconnect(client, { ...this.view(account), reason: { platformCode: error.platformCode, message: error.platformMessage }, detectedAt: new Date().toISOString() });
    });
  }

  /**
   * Tells, once per connection, of every connected OAuth 2.0 account that lacks a scope auth
   * asks for now (connected before `like.read` and `media.write` were asked): an
   * `account.scopes-outdated` announcement each, with the note that it was made, in one
   * transaction. A new connection clears the note. The accounts told.
   */
  async noticeOutdatedScopes(): Promise<string[]> {
    return this.deps.events.storeAndAnnounce(async (client) => {
      const outdated = await this.deps.accounts.takeUnnoticedOutdatedScopes(OAUTH2_SCOPES, client);
      for (const account of outdated) {
        await this.deps.events.accountScopesOutdated(client, { ...this.view(account), missingScopes: account.missingScopes, detectedAt: new Date().toISOString() });
        await this.deps.accounts.markScopesNoticed(account.accountId, client);
        this.deps.logger.info('account connected with an older scope set: told to reconnect', { accountId: account.accountId, missingScopes: account.missingScopes });
      }
      return outdated.map((account) => account.accountId);
    });
  }

  /**
   * The account's owner revoked the app on the platform (at `revokedAt`): forget its token pair,
   * show it as revoked and announce `account.revoked`, in one transaction. A revoke seen again,
   * or older than the account's latest connection, changes and announces nothing.
   */
  async revoked(revoke: { accountId: string; appId: string | null; revokedAt: string }): Promise<boolean> {
    return this.deps.events.storeAndAnnounce(async (client) => {
      const reason = "the account's owner revoked the app's access (platform delivery)";
      if (!(await this.deps.accounts.markRevoked(revoke.accountId, new Date(revoke.revokedAt), reason, client))) return false;
      await this.deps.events.accountRevoked(client, { ...revoke, detectedBy: 'webhook' });
      return true;
    });
  }

  /** The user an OAuth 1.0a token pair belongs to. */
  private verify(token: AccessToken): Promise<VerifiedUser> {
    return this.me({ kind: 'user', token });
  }

  /** The user a credential of either protocol belongs to, by `GET /2/users/me`. */
  private async me(signer: Signer): Promise<VerifiedUser> {
    const answer = await this.deps.platform.call({ method: 'GET', path: '/2/users/me' }, signer);
    const me = (answer.data as { data?: { id?: unknown; username?: unknown; name?: unknown } } | null)?.data;
    if (typeof me?.id !== 'string' || typeof me.username !== 'string') throw new ConnectionFailed('/2/users/me answered without a user');
    await this.deps.meter?.charge(me.id, meterLookup(answer.data));
    return { id_str: me.id, screen_name: me.username, name: typeof me.name === 'string' ? me.name : undefined };
  }

  private async store(user: VerifiedUser, token: AccessToken, via: 'oauth' | 'import'): Promise<AccountSummary> {
    return this.deps.events.storeAndAnnounce(async (client) => {
      const account = await this.deps.accounts.save(
        { accountId: user.id_str, screenName: user.screen_name, name: user.name ?? null, envName: this.options.envName, consumerKey: this.options.consumerKey, token, via },
        client,
      );
      await this.deps.events.accountConnected(client, { ...this.view(account), name: account.name, via, connectedAt: account.connectedAt });
      this.deps.logger.info('account connected', { accountId: account.accountId, screenName: account.screenName, via });
      return account;
    });
  }

  private view(account: AccountSummary) {
    return { accountId: account.accountId, screenName: account.screenName, envName: account.envName, consumerKey: account.consumerKey, accessTokenMasked: account.accessTokenMasked };
  }
}
