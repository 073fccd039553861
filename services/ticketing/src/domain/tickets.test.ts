import { withDefaults } from './partner-config';
import { newTicket, placeInbound, subjectOf, type TicketState } from './tickets';

const config = withDefaults('1001', { sla: { firstResponseMinutes: 30, resolutionMinutes: 600 } }, { queue: 'social', folder: 'inbox', firstResponseMinutes: 60, resolutionMinutes: 1440 });
const now = new Date('2026-01-02T10:00:00.000Z');

describe('newTicket', () => {
  it('takes queue and folder from routing and the due times from the SLA, counted from its creation', () => {
    const ticket = newTicket({
      accountId: '1001',
      channel: 'dm',
      conversationKey: 'dm:1001:2002',
      openedByKind: 'dm_received',
      openedByEventId: '9',
      text: 'where is my order 42?',
      occurredAt: new Date('2026-01-02T09:59:00Z'),
      routing: { queue: 'billing', folder: 'refunds', rule: 'refunds' },
      config,
      now,
    });
    expect(ticket).toEqual({
      accountId: '1001',
      channel: 'dm',
      queue: 'billing',
      folder: 'refunds',
      routingRule: 'refunds',
      routedByEventId: '9',
      openedByKind: 'dm_received',
      conversationKey: 'dm:1001:2002',
      subject: 'where is my order 42?',
      createdAt: now,
      lastActivityAt: new Date('2026-01-02T09:59:00Z'),
      firstResponseDueAt: new Date('2026-01-02T10:30:00.000Z'),
      resolutionDueAt: new Date('2026-01-02T20:00:00.000Z'),
      awaitingPostId: null,
    });
  });
});

describe('placeInbound', () => {
  const at = new Date('2026-01-10T12:00:00Z');
  const ticket = (status: TicketState['status'], resolvedAt: string | null = null): TicketState => ({ id: 't', status, resolvedAt: resolvedAt ? new Date(resolvedAt) : null });

  it('joins an open or pending ticket, and starts one when there is none', () => {
    expect(placeInbound(ticket('open'), at, 60)).toBe('append');
    expect(placeInbound(ticket('pending'), at, 60)).toBe('append');
    expect(placeInbound(null, at, 60)).toBe('new');
  });

  it('reopens a resolved ticket within the window after its resolution (or for a message from before it), not after', () => {
    expect(placeInbound(ticket('resolved', '2026-01-10T11:00:00Z'), at, 60)).toBe('reopen');
    expect(placeInbound(ticket('resolved', '2026-01-10T10:59:59Z'), at, 60)).toBe('new');
    expect(placeInbound(ticket('resolved', '2026-01-10T13:00:00Z'), at, 60)).toBe('reopen');
    expect(placeInbound(ticket('resolved', '2026-01-10T11:30:00Z'), at, 0)).toBe('new');
  });

  it('never reopens a closed or merged ticket', () => {
    expect(placeInbound(ticket('closed'), at, 60)).toBe('new');
    expect(placeInbound(ticket('merged'), at, 60)).toBe('new');
  });
});

describe('subjectOf', () => {
  it('folds whitespace and keeps short texts whole', () => {
    expect(subjectOf('  where is\n\nmy   order?  ')).toBe('where is my order?');
  });

  it('cuts long texts to about 80 characters at a word boundary', () => {
    const subject = subjectOf('word '.repeat(40));
    expect(Array.from(subject).length).toBeLessThanOrEqual(80);
    expect(subject.endsWith('word…')).toBe(true);
  });

  it('cuts text without spaces and never splits a surrogate pair', () => {
    const subject = subjectOf('😀'.repeat(100));
    expect(Array.from(subject)).toHaveLength(80);
    expect(subject).toBe(`${'😀'.repeat(79)}…`);
  });

  it('names an empty text', () => {
    expect(subjectOf('  ')).toBe('(no text)');
    expect(subjectOf(null)).toBe('(no text)');
  });
});
