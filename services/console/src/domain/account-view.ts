/** What the server tells the browser; shared by both (no imports, so the web build can read it). */

/** One connected account as the configuration page lists it. */
export interface AccountView {
  accountId: string;
  screenName: string | null;
  name: string | null;
  /** connected, needs_reconnect, revoked, disconnected, webhook_invalid or unknown. */
  state: string;
  stateReason: string | null;
  consumerKey: string | null;
  accessToken: string | null;
  configured: boolean;
  pageName: string | null;
  /** How auth signs the account's calls: an OAuth 1.0a token pair or an OAuth 2.0 bearer token; null when auth does not know the account. */
  protocol: 'oauth1' | 'oauth2' | null;
  /** ticketing's silence alarm: the account usually gets deliveries and has had none since `silentSince` (noticed at `detectedAt`); null while it delivers. */
  silence: { silentSince: string; detectedAt: string } | null;
}
