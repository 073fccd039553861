/** Order-aware tickets' pure parts: the status in words and colour, the chip, how it was linked, the tester's sentences, the resolve suggestion. */
import { TONE } from '../../web/src/colors';
import { fieldErrors } from '../../web/src/fieldErrors';
import { ApiError } from '../../web/src/api';
import { linkedWords, missingOrderFields, orderChipWords, orderUpdateWords, ordersDraftOf, ordersInputOf, orderStatusTone, orderStatusWords, referenceMatchWords, suggestsResolve } from '../../web/src/orders';

const at = (iso: string) => `clock(${iso})`;

describe("an order's status", () => {
  it('reads in words with a colour of its own, and one ticketing adds later reads as itself', () => {
    expect(orderStatusWords('out_for_delivery')).toBe('Out for delivery');
    expect(orderStatusWords('failed')).toBe('Delivery failed');
    expect(orderStatusWords('returned_to_sender')).toBe('returned to sender');
    expect(orderStatusWords(null)).toBeNull();
    expect(orderStatusTone('delivered')).toBe(TONE.good);
    expect(orderStatusTone('failed')).toBe(TONE.bad);
    expect(orderStatusTone('returned_to_sender')).toBe(TONE.neutral);
  });
});

describe("the inbox row's order chip", () => {
  it('names the order, its status and the ETA on the agent’s clock', () => {
    expect(orderChipWords({ taskId: '4711', status: 'out_for_delivery', eta: '2026-11-27T13:05:00Z' }, at)).toBe('Order 4711 · Out for delivery · ETA clock(2026-11-27T13:05:00Z)');
  });

  it('drops the ETA once the delivery has ended, and the status while none is known', () => {
    expect(orderChipWords({ taskId: '4711', status: 'cancelled', eta: '2026-11-27T13:05:00Z' }, at)).toBe('Order 4711 · Cancelled');
    expect(orderChipWords({ taskId: '4711', status: null, eta: null }, at)).toBe('Order 4711');
  });
});

describe('how an order was linked', () => {
  it('quotes the text it was found in when linked automatically, and says nothing when an agent linked it', () => {
    expect(linkedWords({ taskId: '4711', linkedBy: 'auto', reference: 'order 4711' })).toBe('Linked automatically from “order 4711”');
    expect(linkedWords({ taskId: '4711', linkedBy: 'auto', reference: null })).toBe('Linked automatically');
    expect(linkedWords({ taskId: '4711', linkedBy: 'agent', reference: null })).toBeNull();
  });
});

describe("the order-reference tester's sentences", () => {
  it('says whether the delivery company knows the task, or that it could not be asked', () => {
    expect(referenceMatchWords({ reference: 'order 4711', taskId: '4711', exists: true }, 'demo')).toBe('“order 4711” is task 4711, which the delivery company (demo) knows: a ticket with it is linked to this order.');
    expect(referenceMatchWords({ reference: '#99', taskId: '99', exists: false }, 'demo')).toMatch(/has no such task: a ticket with it is not linked\.$/);
    expect(referenceMatchWords({ reference: '#99', taskId: '99', exists: null }, null)).toMatch(/could not be asked/);
  });

  it("takes the service's own sentence when it gives one", () => {
    expect(referenceMatchWords({ reference: '#99', taskId: '99', exists: false, message: ' No task 99 at demo. ' }, 'demo')).toBe('No task 99 at demo.');
  });
});

describe('the resolve suggestion', () => {
  const delivered = { kind: 'order_update', data: { suggestion: 'resolve' } };
  it('is offered on a delivered order’s entry while the ticket is still pending', () => {
    expect(suggestsResolve(delivered, 'pending')).toBe(true);
    expect(suggestsResolve(delivered, 'open')).toBe(false);
    expect(suggestsResolve(delivered, 'resolved')).toBe(false);
    expect(suggestsResolve({ kind: 'order_update', data: null }, 'pending')).toBe(false);
    expect(suggestsResolve({ kind: 'note', data: { suggestion: 'resolve' } }, 'pending')).toBe(false);
  });
});

describe("the orders section's refused fields", () => {
  it('are told beside the pattern, the tracking client and the slip time', () => {
    const refusal = new ApiError(400, 'invalid_partner_config', 'invalid', [
      { in: 'body', field: 'orders.references[1].pattern', message: 'is not a valid regular expression' },
      { in: 'body', field: 'orders.trackingClientId', message: 'must match pattern "\\S"' },
      { in: 'body', field: 'orders.rules.slipMinutes', message: 'must be >= 1' },
    ]);
    expect(fieldErrors(refusal)).toEqual({
      '/orders/references/1/pattern': 'Pattern: is not a valid regular expression',
      '/orders/trackingClientId': 'Tracking client is required',
      '/orders/rules/slipMinutes': 'Slip time must be at least 1',
    });
  });
});

describe("the orders section's draft", () => {
  it("fills ticketing's defaults into stored options, and is off when none are stored", () => {
    expect(ordersDraftOf(null)).toBeNull();
    expect(ordersDraftOf({ trackingClientId: 'demo', rules: { slipMinutes: 45 } })).toEqual({
      trackingClientId: 'demo',
      references: [],
      rules: { slipMinutes: 45, raisePriorityOnSlip: true, reopenOnFailure: true, suggestResolveOnDelivery: true },
    });
  });

  it('asks for a tracking client and a slip time before saving, and sends them trimmed', () => {
    const draft = { ...ordersDraftOf({ trackingClientId: ' ' })!, rules: { slipMinutes: null, raisePriorityOnSlip: false, reopenOnFailure: true, suggestResolveOnDelivery: true } };
    expect(missingOrderFields(draft)).toEqual([
      ['/orders/trackingClientId', 'is required'],
      ['/orders/rules/slipMinutes', 'is required'],
    ]);
    expect(missingOrderFields(null)).toEqual([]);
    const filled = { ...draft, trackingClientId: ' demo ', references: [{ pattern: 'ref-(\\d+)', taskId: ' $1 ' }], rules: { ...draft.rules, slipMinutes: 20 } };
    expect(ordersInputOf(filled)).toEqual({ trackingClientId: 'demo', references: [{ pattern: 'ref-(\\d+)', taskId: '$1' }], rules: { slipMinutes: 20, raisePriorityOnSlip: false, reopenOnFailure: true, suggestResolveOnDelivery: true } });
    expect(ordersInputOf(null)).toBeNull();
  });
});

describe("an order update's words", () => {
  const at = (iso: string) => iso.slice(11, 16);
  it('says the times it names on the clock it is given, from the entry\'s data', () => {
    expect(orderUpdateWords({ event: 'task.eta_moved', previousEta: '2026-11-27T12:40:00Z', eta: '2026-11-27T13:05:00Z' }, 'ETA moved 11:40 UTC -> 12:05 UTC', at)).toBe('ETA moved 12:40 -> 13:05');
    expect(orderUpdateWords({ event: 'task.status_changed', status: 'out_for_delivery', eta: '2026-11-27T12:40:00Z' }, null, at)).toBe('Out for delivery, ETA 12:40');
    expect(orderUpdateWords({ event: 'task.status_changed', status: 'delivered', statusAt: '2026-11-27T12:41:00Z' }, null, at)).toBe('Delivered 12:41');
    expect(orderUpdateWords({ event: 'task.rider_silent', lastPositionAt: '2026-11-27T12:31:00Z' }, null, at)).toBe('Rider silent since 12:31');
    expect(orderUpdateWords({ event: 'task.status_changed', status: 'cancelled' }, 'Cancelled', at)).toBe('Cancelled');
  });

  it("falls back to ticketing's words when the data does not say enough", () => {
    expect(orderUpdateWords(null, 'Delivery failed', at)).toBe('Delivery failed');
    expect(orderUpdateWords({ event: 'task.eta_moved' }, 'ETA moved 12:40 UTC -> 13:05 UTC', at)).toBe('ETA moved 12:40 UTC -> 13:05 UTC');
  });
});
