/** A service's refusal passed on by the console's relay: the same kind, code, message, fields and Retry-After. */
import { relayedRefusal } from './http/session';

const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => ({ status, body, headers: new Headers(headers) });

describe("a service's refusal relayed", () => {
  it('keeps its kind, code, message, fields and Retry-After', () => {
    const fields = [{ in: 'body', field: 'text', message: 'is required' }];
    const refused = relayedRefusal(answer(400, { error: { code: 'invalid_request', message: 'body.text is required', fields } }), 'fallback', 'fallback message');
    expect([refused.kind, refused.code, refused.message, refused.details]).toEqual(['invalid', 'invalid_request', 'body.text is required', { fields }]);
    const limited = relayedRefusal(answer(429, { error: { code: 'rate_limited', message: 'slow down' } }, { 'retry-after': '12' }), 'fallback', 'fallback message');
    expect([limited.kind, limited.details]).toEqual(['rate_limited', { headers: { 'retry-after': '12' } }]);
  });

  it('names what it cannot read with the fallback code and message', () => {
    const refused = relayedRefusal(answer(409, null), 'events_refused', 'ticketing refused the event stream (409)');
    expect([refused.kind, refused.code, refused.message]).toEqual(['conflict', 'events_refused', 'ticketing refused the event stream (409)']);
  });

  it('makes a status outside the kinds a rejection (4xx) or the service failing (5xx)', () => {
    expect(relayedRefusal(answer(410, null), 'gone', 'gone').kind).toBe('upstream_rejected');
    expect(relayedRefusal(answer(500, { error: { code: 'internal', message: 'something went wrong' } }), 'x', 'x').kind).toBe('upstream_failed');
  });
});
