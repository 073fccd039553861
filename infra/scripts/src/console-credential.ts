/**
 * How `pnpm start` gives the console its service credential (SERVICE_TOKEN), which it sends to
 * auth's POST /v1/sessions only. Either one given by hand (SERVICE_TOKEN, or .env's
 * CONSOLE_SERVICE_TOKEN), which auth must then accept as a session issuer, or none given: a
 * credential with scope sessions:issue is made with auth's CLI at each start. Never the local
 * development token: with CRM_API_TOKENS set, auth and ticketing refuse it.
 */
export type ConsoleCredential =
  | { kind: 'given'; token: string; consoleEnv: { SERVICE_TOKEN: string }; authEnv: { SESSION_ISSUER_TOKENS: string } }
  | { kind: 'made-by-auth-cli' };

export function consoleCredential(env: NodeJS.ProcessEnv): ConsoleCredential {
  const given = (env.SERVICE_TOKEN || env.CONSOLE_SERVICE_TOKEN || '').trim();
  if (!given) return { kind: 'made-by-auth-cli' };
  const issuers = (env.SESSION_ISSUER_TOKENS ?? '')
    .split(',')
    .map((token) => token.trim())
    .filter(Boolean);
  return { kind: 'given', token: given, consoleEnv: { SERVICE_TOKEN: given }, authEnv: { SESSION_ISSUER_TOKENS: [...new Set([...issuers, given])].join(',') } };
}
