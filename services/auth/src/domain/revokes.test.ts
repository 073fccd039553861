import type { RawActivityPayload } from '@crm/contracts';
import { appRevoked } from '@crm/social-platform-simulator/src/activity-deliveries';
import { xaaDelivery, xaaEventsOf } from '@crm/social-platform-simulator/src/xaa-deliveries';
import { InvalidRevoke, revokeOf } from './revokes';

const activity = (delivery: Record<string, unknown>, overrides: Partial<RawActivityPayload> = {}): RawActivityPayload => ({
  envName: 'test',
  kind: 'user_event',
  forUserId: '1001',
  receivedAt: '2026-07-03T10:00:05.000Z',
  bodySha256: 'a'.repeat(64),
  delivery,
  ...overrides,
});

describe('revokeOf', () => {
  it('reads the revoking account, the app and the time of a platform revoke', () => {
    const delivery = appRevoked({ account: '1001', createdAt: new Date('2026-07-03T10:00:00Z') });
    expect(revokeOf(activity(delivery))).toEqual({ accountId: '1001', appId: expect.stringMatching(/^[0-9]+$/), revokedAt: '2026-07-03T10:00:00.000Z' });
  });

  it('takes numeric ids, and no app when the platform named none', () => {
    const delivery = { user_event: { revoke: { date_time: '2026-07-03T10:00:00+02:00', source: { user_id: 1001 } } } };
    expect(revokeOf(activity(delivery))).toEqual({ accountId: '1001', appId: null, revokedAt: '2026-07-03T08:00:00.000Z' });
    expect(revokeOf(activity(delivery, { forUserId: null }))).toMatchObject({ accountId: '1001' });
  });

  it('reads the same revoke from the X Activity API, and refuses a garbled XAA delivery', () => {
    const revoke = appRevoked({ account: '1001', createdAt: new Date('2026-07-03T10:00:00Z') });
    const [event] = xaaEventsOf(revoke);
    const delivery = xaaDelivery(event!, { filter: { user_id: '1001' } }) as unknown as Record<string, unknown>;
    expect(revokeOf(activity(delivery, { api: 'xaa' }))).toEqual(revokeOf(activity(revoke)));
    expect(() => revokeOf(activity({ data: { event_type: 'oauth.revoke' } }, { api: 'xaa' }))).toThrow(InvalidRevoke);
  });

  it('is null for other user events and other deliveries', () => {
    expect(revokeOf(activity({ user_event: { something_new: {} } }))).toBeNull();
    expect(revokeOf(activity({ for_user_id: '1001', follow_events: [{}] }, { kind: 'follow_events' }))).toBeNull();
  });

  it('refuses a revoke without a readable user, with a bad time, or routed for another account', () => {
    const at = '2026-07-03T10:00:00+00:00';
    expect(() => revokeOf(activity({ user_event: { revoke: { date_time: at, source: {} } } }))).toThrow(InvalidRevoke);
    expect(() => revokeOf(activity({ user_event: { revoke: { date_time: at, source: { user_id: 'abc' } } } }))).toThrow('source.user_id');
    expect(() => revokeOf(activity({ user_event: { revoke: { date_time: 'soon', source: { user_id: '1001' } } } }))).toThrow('date_time');
    expect(() => revokeOf(activity({ user_event: { revoke: { date_time: at, source: { user_id: '2002' } } } }))).toThrow('forUserId 1001 does not match');
  });
});
