/**
 * The table of activity kinds is complete by construction: a kind added to SOCIAL_EVENT_KINDS
 * without its entries does not compile (`pnpm typecheck` fails on the `@ts-expect-error` lines
 * below if an incomplete table were accepted), and nothing falls to a default at run time.
 */
import { RECORDERS, type RecorderTable } from '../operations/recording/record-events';
import { contactOf, EVENT_KINDS, hasOwnText, lockKeyOf, type EventKindTable } from './event-kinds';
import { SOCIAL_EVENT_KINDS, type SocialEvent } from './social-events';

describe('the table of activity kinds', () => {
  it('has an entry for every kind, in the domain and in recording', () => {
    expect(Object.keys(EVENT_KINDS).sort()).toEqual([...SOCIAL_EVENT_KINDS].sort());
    expect(Object.keys(RECORDERS).sort()).toEqual([...SOCIAL_EVENT_KINDS].sort());
  });

  it('is refused by the compiler when a kind has no entry', () => {
    const { subscription_revoked: _revoke, ...withoutRevoke } = EVENT_KINDS;
    // @ts-expect-error Property 'subscription_revoked' is missing: a kind without its lock key and contact does not compile.
    const incomplete: EventKindTable = withoutRevoke;
    const { block: _block, ...withoutBlock } = RECORDERS;
    // @ts-expect-error Property 'block' is missing: a kind without its recorder does not compile.
    const noRecorder: RecorderTable = withoutBlock;
    expect(Object.keys(incomplete)).not.toContain('subscription_revoked');
    expect(Object.keys(noRecorder)).not.toContain('block');
  });

  it('gives each kind its own lock and contact, with no default', () => {
    const user = { id: '42', screenName: 'ana', name: null, avatarUrl: null, followersCount: null, verified: null, raw: null };
    const common = { accountId: '1001', platformEventId: 'e1', occurredAt: '2026-01-01T00:00:00.000Z', raw: {} };
    const revoke = { ...common, kind: 'subscription_revoked', appId: null } satisfies SocialEvent;
    const block = { ...common, kind: 'block', target: user } satisfies SocialEvent;
    const typing = { ...common, kind: 'dm_typing', senderId: '42', recipientId: '1001', counterpartId: '42', byAccount: false } satisfies SocialEvent;
    expect([revoke, block, typing].map(lockKeyOf)).toEqual(['account:1001:subscription', 'contact:1001:42', 'dm:1001:42']);
    expect([revoke, block, typing].map(contactOf)).toEqual([null, user, null]);
  });

  it('detects edits only for kinds whose text is their own', () => {
    expect(['dm_received', 'dm_sent', 'mention', 'reply_by_account'].every(hasOwnText)).toBe(true);
    expect(['like_of_account', 'repost_by_account', 'follow_of_account', 'block', 'not_a_kind'].some(hasOwnText)).toBe(false);
  });
});
