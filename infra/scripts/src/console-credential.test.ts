import { LOCAL_DEV } from '@crm/config';
import { consoleCredential } from './console-credential';

describe("pnpm start's console credential", () => {
  it('is made with auth\'s CLI when none is given, whatever CRM_API_TOKENS says', () => {
    expect(consoleCredential({ CRM_API_TOKENS: 'crm-own-token' })).toEqual({ kind: 'made-by-auth-cli' });
    expect(consoleCredential({})).toEqual({ kind: 'made-by-auth-cli' });
  });

  it.each([['SERVICE_TOKEN'], ['CONSOLE_SERVICE_TOKEN']])('is %s when given, and auth is told to accept it as a session issuer', (name) => {
    const plan = consoleCredential({ CRM_API_TOKENS: 'crm-own-token', [name]: ' console-own-token ' });
    expect(plan).toEqual({ kind: 'given', token: 'console-own-token', consoleEnv: { SERVICE_TOKEN: 'console-own-token' }, authEnv: { SESSION_ISSUER_TOKENS: 'console-own-token' } });
  });

  it('keeps the session issuers auth was given and never falls back to the development token', () => {
    const plan = consoleCredential({ SERVICE_TOKEN: 'console-own-token', SESSION_ISSUER_TOKENS: 'other-issuer, console-own-token' });
    expect(plan).toMatchObject({ authEnv: { SESSION_ISSUER_TOKENS: 'other-issuer,console-own-token' } });
    expect(JSON.stringify(consoleCredential({ CRM_API_TOKENS: 'crm-own-token' }))).not.toContain(LOCAL_DEV.crmToken);
  });
});
