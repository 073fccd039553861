import { Refusal } from '@crm/http';
import { decodeCursor, encodeCursor } from './cursor';
import { DEFAULT_LIMIT, parseTicketListQuery } from './params';

function rejection(query: Record<string, unknown>): Refusal {
  try {
    parseTicketListQuery(query);
  } catch (error) {
    if (error instanceof Refusal) return error;
    throw error;
  }
  throw new Error('expected a 400');
}

describe('GET /v1/tickets query', () => {
  it('takes every filter, trims q and defaults the limit', () => {
    expect(parseTicketListQuery({ accountId: '1001', queue: 'social', folder: 'inbox', status: 'open', q: '  order 42 ' })).toEqual({
      accountId: '1001',
      queue: 'social',
      folder: 'inbox',
      statuses: ['open'],
      q: { orderNumbers: [], handles: [], words: 'order 42' },
      limit: DEFAULT_LIMIT,
    });
    expect(parseTicketListQuery({ q: '', status: '', limit: '' })).toEqual({ limit: DEFAULT_LIMIT });
  });

  it.each([
    [{ limit: '0' }, 'limit'],
    [{ limit: '201' }, 'limit'],
    [{ limit: 'ten' }, 'limit'],
    [{ limit: '1.5' }, 'limit'],
    [{ limit: '-1' }, 'limit'],
    [{ status: 'done' }, 'status'],
    [{ accountId: 'acme' }, 'accountId'],
    [{ accountId: ['1', '2'] }, 'accountId'],
    [{ cursor: 'not a cursor' }, 'cursor'],
    [{ cursor: Buffer.from('{"c":"x","i":"y"}').toString('base64url') }, 'cursor'],
    [{ q: 'x'.repeat(201) }, 'q'],
  ])('rejects %j naming %s', (query, name) => {
    const error = rejection(query);
    expect(error.kind).toBe('invalid');
    expect(error.code).toBe('invalid_parameter');
    expect(error.message.startsWith(name)).toBe(true);
  });

  it('accepts limits from 1 to 200', () => {
    expect(parseTicketListQuery({ limit: '1' }).limit).toBe(1);
    expect(parseTicketListQuery({ limit: '200' }).limit).toBe(200);
  });

  it('takes the numbers and booleans the request validator made of typed parameters', () => {
    expect(parseTicketListQuery({ limit: 20, breached: true })).toEqual({ limit: 20, breached: true });
    expect(parseTicketListQuery({ breached: false }).breached).toBe(false);
    expect(parseTicketListQuery({ assignee: 'me' }, 'agent-7').assignee).toBe('agent-7');
    expect(parseTicketListQuery({ assignee: 'none' }, 'agent-7').assignee).toBeNull();
    expect(parseTicketListQuery({ assignee: 'agent-2' }, 'agent-7').assignee).toBe('agent-2');
    expect(() => parseTicketListQuery({ assignee: 'me' })).toThrow('assignee=me needs a signed-in agent');
    expect(rejection({ limit: 500 }).message).toMatch(/^limit/);
  });
});

describe('cursor', () => {
  it('round-trips a position to the microsecond and is opaque base64url', () => {
    const position = { createdAt: '2026-01-02T10:00:00.123456Z', id: '6f1c1f0e-8a4b-4d7e-9f00-0123456789ab' };
    const cursor = encodeCursor(position);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor)).toEqual(position);
    expect(parseTicketListQuery({ cursor }).after).toEqual(position);
  });

  it('refuses anything else', () => {
    expect(decodeCursor(Buffer.from('[]').toString('base64url'))).toBeNull();
    expect(decodeCursor(Buffer.from('{"c":"2026-01-02T10:00:00.123456Z","i":"nope"}').toString('base64url'))).toBeNull();
    expect(decodeCursor('%%%')).toBeNull();
  });
});
