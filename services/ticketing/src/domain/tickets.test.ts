import { dmDelivery, dmEvent, rawActivity } from '../testing/deliveries';
import { interpretActivity } from './activity';
import type { DmReceived } from './events';
import { subjectOf, threadDmReceived, type TicketDefaults } from './tickets';

const defaults: TicketDefaults = { queue: 'social', folder: 'inbox', firstResponseMinutes: 60, resolutionMinutes: 1440 };
const now = new Date('2026-01-02T10:00:00.000Z');

function received(text: string): DmReceived {
  const payload = rawActivity(dmDelivery('1001', [dmEvent({ id: '9', from: '2002', to: '1001', text, at: Date.parse('2026-01-02T09:59:00Z') })]));
  return interpretActivity(payload).events[0] as DmReceived;
}

describe('threading a received DM', () => {
  it('opens a DM ticket in the default queue and folder, due 60 and 1440 minutes after creation', () => {
    const decision = threadDmReceived(received('where is my order 42?'), null, defaults, now);
    expect(decision).toEqual({
      action: 'open',
      ticket: {
        accountId: '1001',
        status: 'open',
        channel: 'dm',
        queue: 'social',
        folder: 'inbox',
        conversationKey: 'dm:1001:2002',
        subject: 'where is my order 42?',
        createdAt: now,
        lastActivityAt: new Date('2026-01-02T09:59:00Z'),
        firstResponseDueAt: new Date('2026-01-02T11:00:00.000Z'),
        resolutionDueAt: new Date('2026-01-03T10:00:00.000Z'),
      },
    });
  });

  it('appends to the open ticket of the conversation, and makes a pending one open again', () => {
    expect(threadDmReceived(received('again'), { id: 't1', status: 'open' }, defaults, now)).toEqual({ action: 'append', ticketId: 't1', status: 'open' });
    expect(threadDmReceived(received('again'), { id: 't2', status: 'pending' }, defaults, now)).toEqual({ action: 'append', ticketId: 't2', status: 'open' });
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
  });
});
