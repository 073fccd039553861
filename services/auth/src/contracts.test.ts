/** The contracts auth shares with the rest of the system: commands, results, account events, and the auth.commands queue. */
import {
  AccountConnected,
  commandResultRoutingKey,
  Exchanges,
  Queues,
  SOCIAL_ACTIONS,
  SocialCommandResult,
  SYSTEM_TOPOLOGY,
  validateEnvelope,
  type Contract,
} from '@crm/contracts';
import { ACTIONS, platformIdOf } from './domain/actions';

const envelope = (contract: Contract<unknown>, payload: unknown) => ({ id: 'm-1', type: contract.type, occurredAt: '2026-01-01T00:00:00.000Z', producer: 'auth', correlationId: 'c-1', payload });

describe('command contracts', () => {
  it('binds auth.commands to social.commands for every action', () => {
    const queue = SYSTEM_TOPOLOGY.queues.find((q) => q.name === Queues.authCommands);
    expect(queue?.kind).toBe('work');
    expect(queue?.bindings?.map((b) => `${b.exchange}:${b.routingKey}`).sort()).toEqual(SOCIAL_ACTIONS.map((a) => `${Exchanges.socialCommands}:${a}`).sort());
  });

  it('routes results as <action>.succeeded or <action>.failed (unknown goes with failed)', () => {
    expect(commandResultRoutingKey('send_dm', 'succeeded')).toBe('send_dm.succeeded');
    expect(commandResultRoutingKey('send_dm', 'failed')).toBe('send_dm.failed');
    expect(commandResultRoutingKey('post', 'unknown')).toBe('post.failed');
  });

  it('requires an error on a result that did not succeed, and none on one that did', () => {
    const base = { commandId: 'c1', action: 'post', accountId: '1', platformId: null, data: null, completedAt: '2026-01-01T00:00:00.000Z' };
    expect(() => validateEnvelope(envelope(SocialCommandResult, { ...base, outcome: 'unknown', error: null }))).toThrow(/error must be object/);
    expect(() =>
      validateEnvelope(envelope(SocialCommandResult, { ...base, outcome: 'succeeded', error: { code: 'platform_rejected', message: 'x', platformCode: 1, platformStatus: 403 } })),
    ).toThrow(/error must be null/);
    expect(validateEnvelope(envelope(SocialCommandResult, { ...base, outcome: 'unknown', error: { code: 'outcome_unknown', message: 'timed out', platformCode: null, platformStatus: null } }))).toBeTruthy();
  });

  it('lets no full access token through an account event (masked only)', () => {
    const payload = { accountId: '1', screenName: 'a', envName: 'dev', consumerKey: 'k', name: null, via: 'oauth', connectedAt: '2026-01-01T00:00:00.000Z' };
    expect(() => validateEnvelope(envelope(AccountConnected, { ...payload, accessTokenMasked: '370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb' }))).toThrow(/accessTokenMasked/);
    expect(validateEnvelope(envelope(AccountConnected, { ...payload, accessTokenMasked: '3707…JAEb' }))).toBeTruthy();
  });
});

describe('the action catalogue', () => {
  it('has a platform call for every action, reads as GET and writes not', () => {
    for (const action of SOCIAL_ACTIONS) {
      const definition = ACTIONS[action];
      const request = definition.request({ userId: '2', listId: '3', postId: '4', collectionId: 'custom-5', eventId: '6', recipientId: '7', text: 't', name: 'n', lastReadEventId: '8', inReplyToPostId: '9' }, '1');
      expect(request.path).toMatch(/^\/1\.1\/.+\.json$/);
      expect(request.method === 'GET').toBe(definition.kind === 'read');
    }
  });

  it('finds the platform id of what a write made: DM event id, post id_str, collection timeline id', () => {
    expect(platformIdOf('write', { event: { id: '1494419' } })).toBe('1494419');
    expect(platformIdOf('write', { id: 1.2e18, id_str: '1200000000000000001' })).toBe('1200000000000000001');
    expect(platformIdOf('write', { response: { timeline_id: 'custom-88' } })).toBe('custom-88');
    expect(platformIdOf('read', { id_str: '5' })).toBeNull();
    expect(platformIdOf('write', null)).toBeNull();
  });
});
