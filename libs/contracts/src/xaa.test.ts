import { accountActivityForm, checkXaaDelivery, type XaaDelivery } from './xaa';

const dm = (overrides: Record<string, unknown> = {}) => ({
  data: {
    event_uuid: '0c1d2e3f-aaaa-4bbb-8ccc-000000000001',
    event_type: 'dm.received',
    filter: { user_id: '1001' },
    tag: null,
    payload: { id: '55', event_type: 'MessageCreate', text: 'hi', sender_id: '2002', participant_ids: ['2002', '1001'], dm_conversation_id: '1001-2002', created_at: '2026-11-25T06:00:00.000Z' },
    includes: { users: [{ id: '2002', name: 'Ana', username: 'ana', public_metrics: { followers_count: 3, following_count: 4 } }] },
    ...overrides,
  },
});

describe('X Activity API deliveries', () => {
  it('are known by their event type, and taken for the subscribed account', () => {
    expect(checkXaaDelivery(dm())).toEqual({ ok: true, eventType: 'dm.received', kind: 'direct_message_events', forUserId: '1001', eventUuid: '0c1d2e3f-aaaa-4bbb-8ccc-000000000001' });
    expect(checkXaaDelivery(dm({ event_type: 'dm.everything' }))).toMatchObject({ ok: false, problems: [expect.stringContaining('event_type')] });
    expect(checkXaaDelivery(dm({ filter: { keyword: 'order' } }))).toMatchObject({ ok: false, problems: [expect.stringContaining('filter/user_id')] });
    expect(checkXaaDelivery({ for_user_id: '1001', direct_message_events: [] })).toMatchObject({ ok: false });
  });

  it('read as the Account Activity delivery of the same activity', () => {
    expect(accountActivityForm(dm() as XaaDelivery)).toEqual({
      for_user_id: '1001',
      direct_message_events: [
        {
          type: 'message_create',
          id: '55',
          created_timestamp: String(Date.parse('2026-11-25T06:00:00.000Z')),
          message_create: { target: { recipient_id: '1001' }, sender_id: '2002', message_data: { text: 'hi', entities: { hashtags: [], symbols: [], user_mentions: [], urls: [] } } },
        },
      ],
      users: { '2002': { id: '2002', id_str: '2002', name: 'Ana', screen_name: 'ana', protected: false, verified: false, followers_count: 3, friends_count: 4 } },
    });
  });
});
