import type { CredentialGrant } from '@crm/contracts';
import { bootstrapPrincipal, cachedVerifier, newApiToken, parseApiToken, Principal } from './index';

const grant = (overrides: Partial<CredentialGrant> = {}): CredentialGrant => ({ id: 'abc', name: 'n', scopes: ['tickets:read'], accountIds: null, trackingClientIds: null, ...overrides });

describe('API tokens', () => {
  it('are crm_<id>_<secret> with a fresh id and secret each time, and parse back', () => {
    const a = newApiToken();
    const b = newApiToken();
    expect(a.id).not.toBe(b.id);
    expect(a.secret).not.toBe(b.secret);
    expect(parseApiToken(a.token)).toEqual({ kind: 'credential', id: a.id, secret: a.secret });
    expect(parseApiToken(`${a.token}x`)).toBeNull();
    expect(parseApiToken('local-dev-token')).toBeNull();
    const session = newApiToken('session');
    expect(session.token.startsWith('crs_')).toBe(true);
    expect(parseApiToken(session.token)).toEqual({ kind: 'session', id: session.id, secret: session.secret });
  });
});

describe('a principal', () => {
  it('holds its scopes, every scope with admin, and only its accounts and tracking clients', () => {
    const reader = new Principal(grant({ accountIds: ['1'], trackingClientIds: ['acme'] }));
    expect(reader.has('tickets:read')).toBe(true);
    expect(reader.has('tickets:write')).toBe(false);
    expect(reader.allowsAccount('1')).toBe(true);
    expect(reader.allowsAccount('2')).toBe(false);
    expect(reader.allowsTrackingClient('beta')).toBe(false);
    const admin = new Principal(grant({ scopes: ['admin'] }));
    expect(admin.has('accounts:manage')).toBe(true);
    expect(admin.allowsAccount('2')).toBe(true);
    expect(bootstrapPrincipal(1)).toMatchObject({ id: 'bootstrap-2', bootstrap: true, accountIds: null });
  });

  it('limited to tickets reaches those tickets only, and no account or tracking client directly', () => {
    const launch = new Principal(grant({ id: 'launch-1', scopes: ['tickets:read', 'tickets:write'], ticketIds: ['t1'], sessionId: 's1' }));
    expect(launch.allowsTicket('t1')).toBe(true);
    expect(launch.allowsTicket('t2')).toBe(false);
    expect(launch.allowsAccount('1')).toBe(false);
    expect(launch.allowsTrackingClient('acme')).toBe(false);
    expect(launch.accountIds).toEqual([]);
    expect(launch.trackingClientIds).toEqual([]);
    expect(new Principal(grant()).allowsTicket('any')).toBe(true);
  });

  it('is ended by a revocation of its credential or of its session', () => {
    const session = new Principal(grant({ id: 'cred1', sessionId: 'sess1' }));
    expect(session.revokedBy('cred1')).toBe(true);
    expect(session.revokedBy('sess1')).toBe(true);
    expect(session.revokedBy('other')).toBe(false);
  });
});

describe('the cached verifier', () => {
  it('remembers valid and invalid answers, but not failures', async () => {
    const asked: string[] = [];
    let fail = false;
    const { verify, clear } = cachedVerifier(
      async (token) => {
        asked.push(token);
        if (fail) throw new Error('auth is down');
        return token === 'good' ? grant() : null;
      },
      { ttlMs: 60_000 },
    );
    expect(await verify('good')).toEqual(grant());
    expect(await verify('good')).toEqual(grant());
    expect(await verify('bad')).toBeNull();
    expect(await verify('bad')).toBeNull();
    expect(asked).toEqual(['good', 'bad']);
    fail = true;
    await expect(verify('other')).rejects.toThrow('auth is down');
    await expect(verify('other')).rejects.toThrow('auth is down');
    expect(asked).toEqual(['good', 'bad', 'other', 'other']);
    clear();
    await expect(verify('good')).rejects.toThrow('auth is down');
  });
});
