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
}
