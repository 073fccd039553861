import type { Logger } from '@crm/logging';
import type { AccountStore, AccountSummary, OAuth2Tokens } from '../adapters/accounts';
import type { AuthEvents } from '../adapters/events';
import type { OAuth2TokenEndpoint } from '../adapters/platform/oauth2';
import { PlatformRejected } from '../domain/platform-errors';

/** How a refresh ended. Failures to reach the platform are thrown instead (the tokens are kept: try again later). */
export type RefreshOutcome =
  /** The account has a new access token (and a new refresh token). */
  | { status: 'refreshed'; accessToken: string; expiresAt: Date }
  /** The stored token is good (another replica refreshed it meanwhile): nothing was asked of the platform. */
  | { status: 'current'; accessToken: string; expiresAt: Date }
  /** Another replica is refreshing it right now (the periodic refresh does not wait; a call waits `lockWaitMs` at most). */
  | { status: 'busy' }
  /** The platform refused the refresh token: the account is marked needs_reconnect (and that announced). */
  | { status: 'refused'; reason: string }
  /** Not a connected OAuth 2.0 account (any more): nothing to refresh. */
  | { status: 'not_connected'; account: AccountSummary | null };

export interface TokenRefresherOptions {
  /** The periodic refresh renews tokens that expire within this margin. */
  marginMs: number;
  /** How long a call that needs a refresh waits for one running elsewhere. */
  lockWaitMs: number;
}

/**
 * Renews OAuth 2.0 access tokens with their refresh tokens. The platform rotates refresh
 * tokens (the one used is spent), so two refreshes of one account at once would leave it with
 * a spent token: every refresh holds the account's row lock (`FOR UPDATE`) from reading the
 * refresh token to storing the new pair, in one transaction, and re-reads the row once it has
 * the lock, so a refresh that waited finds the fresh token and asks nothing. A refresh the
 * platform refuses marks the account needs_reconnect and announces it in that same transaction.
 */
export class TokenRefresher {
  constructor(
    private readonly deps: { accounts: AccountStore; tokens: OAuth2TokenEndpoint; events: AuthEvents; logger: Logger },
    private readonly options: TokenRefresherOptions,
  ) {}

  /** The periodic round: refreshes every token that expires within the margin, skipping those another replica is refreshing. */
  async refreshDue(): Promise<{ refreshed: number; refused: number; failed: number; skipped: number }> {
    const counts = { refreshed: 0, refused: 0, failed: 0, skipped: 0 };
    for (const accountId of await this.deps.accounts.dueForRefresh(Math.ceil(this.options.marginMs / 1000))) {
      try {
        const outcome = await this.refresh(accountId, { wait: false, unlessValidFor: this.options.marginMs });
        if (outcome.status === 'refreshed') counts.refreshed += 1;
        else if (outcome.status === 'refused') counts.refused += 1;
        else counts.skipped += 1;
      } catch (error) {
        counts.failed += 1; // the tokens are kept; the next round tries again
        this.deps.logger.warn('token refresh failed; trying again next round', { accountId, reason: (error as Error).message });
      }
    }
    return counts;
  }

  /**
   * A call found `staleAccessToken` expired or refused: refresh it, waiting for a refresh
   * running elsewhere; when the stored token is another one by then, that one is given.
   */
  refreshForCall(accountId: string, staleAccessToken: string): Promise<RefreshOutcome> {
    return this.refresh(accountId, { wait: true, unlessValidFor: 0, staleAccessToken });
  }

  private refresh(accountId: string, how: { wait: boolean; unlessValidFor: number; staleAccessToken?: string }): Promise<RefreshOutcome> {
    // The transaction runs again after a deadlock or serialization failure; the refresh token it
    // spent must not be sent again then: the tokens the platform gave are stored instead.
    let obtained: { spent: string; fresh: OAuth2Tokens } | null = null;
    return this.deps.events.storeAndAnnounce(async (client): Promise<RefreshOutcome> => {
      const locked = await this.deps.accounts.lockForRefresh(accountId, client, how.wait ? { waitMs: this.options.lockWaitMs } : {});
      if (locked === 'timeout') return { status: 'busy' };
      if (!locked) return how.wait ? { status: 'not_connected', account: null } : { status: 'busy' };
      const { account, tokens } = locked;
      if (!tokens || account.status !== 'connected') return { status: 'not_connected', account };
      // Refreshed meanwhile (by another replica, or the call before): the token a call found stale was replaced, or it is not due any more.
      const current = how.staleAccessToken !== undefined ? tokens.accessToken !== how.staleAccessToken : tokens.expiresAt.getTime() > Date.now() + how.unlessValidFor;
      if (current) return { status: 'current', accessToken: tokens.accessToken, expiresAt: tokens.expiresAt };
      let fresh = obtained?.spent === tokens.refreshToken ? obtained.fresh : null;
      try {
        if (!fresh) {
          fresh = await this.deps.tokens.refresh(tokens.refreshToken);
          obtained = { spent: tokens.refreshToken, fresh };
        }
      } catch (error) {
        // 400 (invalid_grant, or invalid_request for a spent token): the refresh token will never work again.
        if (!(error instanceof PlatformRejected && error.status === 400)) throw error;
        const marked = await this.deps.accounts.markNeedsReconnect(accountId, `the platform refused to refresh the access token (${error.platformMessage})`, client);
        if (marked) {
          await this.deps.events.accountNeedsReconnect(client, {
            accountId,
            screenName: marked.screenName,
            envName: marked.envName,
            consumerKey: marked.consumerKey,
            accessTokenMasked: marked.accessTokenMasked,
            reason: { platformCode: error.platformCode, message: `token refresh refused: ${error.platformMessage}`.slice(0, 1000) },
            detectedAt: new Date().toISOString(),
          });
        }
        this.deps.logger.warn('the platform refused a token refresh; the account needs a reconnect', { accountId, status: error.status });
        return { status: 'refused', reason: error.platformMessage };
      }
      await this.deps.accounts.storeRefreshed(accountId, fresh, client);
      this.deps.logger.info('access token refreshed', { accountId, expiresAt: fresh.expiresAt.toISOString() });
      return { status: 'refreshed', accessToken: fresh.accessToken, expiresAt: fresh.expiresAt };
    });
  }
}
