import { LOCAL_DEV, list, listenPort, loadConfig, logLevel, makeValidator, nonEmptyList, num, str, url, wholeNumber } from '@crm/config';

/** A secret of at least 32 characters (signs session cookies and launch links). */
/** Express's `trust proxy` setting: false/true, a hop count, or a comma-separated list of addresses and subnets. */
const trustProxy = makeValidator<boolean | number | string>((input) => {
  const value = input.trim();
  if (value === '' || value === 'false') return false;
  if (value === 'true') return true;
  if (/^[0-9]+$/.test(value)) return Number(value);
  return value;
});

const longSecret = makeValidator<string>((input) => {
  if (input.trim().length < 32) throw new Error('must be at least 32 characters (e.g. `openssl rand -base64 32`)');
  return input.trim();
});

/** Publicly known values for the local stack only (never accepted in production). */
export const LOCAL_DEV_SESSION_SECRET = 'local-dev-console-session-secret-0123456789';

/**
 * The console's settings. With NODE_ENV development or test the service credential, the CRM
 * tokens and the session secret fall back to local development values; in production every
 * one must be set.
 */
export function readConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig(
    'console',
    {
      PORT: listenPort({ default: 3005 }),
      LOG_LEVEL: logLevel(),
      SHUTDOWN_TIMEOUT_MS: num({ default: 10000 }),
      TICKETING_URL: url({ devDefault: 'http://127.0.0.1:3002', desc: "ticketing's API" }),
      AUTH_URL: url({ devDefault: 'http://127.0.0.1:3003', desc: "auth's API" }),
      SERVICE_TOKEN: str({ devDefault: LOCAL_DEV.crmToken, desc: "The console's own credential (scope sessions:issue): used only to ask auth for sessions; never reaches a browser." }),
      CRM_API_TOKENS: nonEmptyList({ devDefault: [LOCAL_DEV.crmToken], desc: 'Bearer tokens the CRM sends to ask for launch links (comma-separated).' }),
      SESSION_SECRET: longSecret({ devDefault: LOCAL_DEV_SESSION_SECRET, desc: 'Signs session cookies, CSRF tokens and launch links; encrypts the session token in the cookie.' }),
      SESSION_TTL_SECONDS: wholeNumber(60)({ default: 8 * 3600, desc: "How long a sign-in lasts (asked of auth, which may cap it)." }),
      LAUNCH_TTL_SECONDS: wholeNumber(5)({ default: 120, desc: 'How long a launch link may be opened (once).' }),
      LAUNCH_SESSION_TTL_SECONDS: wholeNumber(60)({ default: 1800, desc: 'How long the session a launch link opens lasts (asked of auth).' }),
      TRUST_PROXY: trustProxy({ default: false, desc: "Express's `trust proxy`: set it when a reverse proxy sits in front (true, a hop count, or addresses/subnets), so the client address is the browser's." }),
      PUBLIC_URL: url({ default: undefined, desc: 'The console as browsers reach it (launch links point there); http://127.0.0.1:<port> when unset.' }),
      FRAME_ANCESTORS: list({ default: [], desc: 'Origins allowed to frame the console (CSP frame-ancestors), comma-separated; none when empty.' }),
      COOKIE_SECURE: str({ default: undefined, choices: ['true', 'false'], desc: 'Secure cookies; true in production unless set. With FRAME_ANCESTORS and secure cookies, a launch session\'s cookie is SameSite=None so the embedded console keeps its session; every other cookie is SameSite=Lax.' }),
      TILE_URL: str({ default: '', desc: 'Map tile URL template ({z}/{x}/{y}); empty draws the map over a plain background.' }),
      TILE_ATTRIBUTION: str({ default: '', desc: 'Attribution shown with the tiles.' }),
      MAP_REFRESH_MS: wholeNumber(500)({ default: 5000, desc: 'How often the open map pop-up refreshes.' }),
      POLL_INTERVAL_MS: wholeNumber(500)({ default: 4000, desc: "How often the browser re-reads the inbox when ticketing's event stream is unavailable." }),
      UPSTREAM_TIMEOUT_MS: wholeNumber(100)({ default: 10000, desc: 'Time limit of a call to ticketing or auth.' }),
      WEB_DIR: str({ default: undefined, desc: 'The built web application; dist/web beside the service when unset.' }),
    },
    env,
  );
}

export type ConsoleConfig = ReturnType<typeof readConfig>;

export function usesLocalOnlySecrets(config: ConsoleConfig): boolean {
  return config.SESSION_SECRET === LOCAL_DEV_SESSION_SECRET || config.SERVICE_TOKEN === LOCAL_DEV.crmToken || config.CRM_API_TOKENS.includes(LOCAL_DEV.crmToken);
}

/** Cookies are Secure in production unless COOKIE_SECURE says otherwise. */
export function secureCookies(config: ConsoleConfig, env: NodeJS.ProcessEnv = process.env): boolean {
  if (config.COOKIE_SECURE !== undefined) return config.COOKIE_SECURE === 'true';
  return (env.NODE_ENV ?? 'production') === 'production';
}
