import { DEFAULT_ORDER_RULES } from './order-references';
import { clockTime, orderUpdate, raised, type OrderEvent, type OrderUpdateInput, namedTimes } from './order-updates';

const base = { eventId: 'e1', occurredAt: '2026-06-01T10:41:00.000Z' };
const input = (event: OrderEvent, over: Partial<OrderUpdateInput> = {}): OrderUpdateInput => ({
  event,
  ticket: { status: 'open', priority: 'normal' },
  order: { eta: new Date('2026-06-01T10:40:00.000Z'), firstEta: null, slipRaised: false },
  rules: DEFAULT_ORDER_RULES,
  timeZone: null,
  ...over,
});

describe("a followed order's change on the ticket", () => {
  it('says it in agent words, in the account zone or in UTC named', () => {
    expect(clockTime('2026-06-01T10:40:00.000Z', null)).toBe('10:40 UTC');
    expect(clockTime('2026-06-01T10:40:00.000Z', 'Europe/Madrid')).toBe('12:40');
    const madrid = { timeZone: 'Europe/Madrid' };
    expect(orderUpdate(input({ ...base, name: 'task.status_changed', to: 'out_for_delivery', statusAt: null }, madrid)).text).toBe('Out for delivery, ETA 12:40');
    expect(orderUpdate(input({ ...base, name: 'task.status_changed', to: 'delivered', statusAt: null }, madrid)).text).toBe('Delivered 12:41');
    expect(orderUpdate(input({ ...base, name: 'task.status_changed', to: 'failed', statusAt: null })).text).toBe('Delivery failed');
    expect(orderUpdate(input({ ...base, name: 'task.status_changed', to: 'cancelled', statusAt: null })).text).toBe('Cancelled');
    expect(orderUpdate(input({ ...base, name: 'task.eta_moved', previousEta: '2026-06-01T10:40:00.000Z', eta: '2026-06-01T11:05:00.000Z' }, madrid)).text).toBe('ETA moved 12:40 -> 13:05');
    expect(orderUpdate(input({ ...base, name: 'task.rider_silent', lastPositionAt: '2026-06-01T10:31:00.000Z' }, madrid)).text).toBe('Rider silent since 12:31');
  });

  it('raises the priority once when the ETA slips slipMinutes past the first one seen', () => {
    const moved = (eta: string, order: OrderUpdateInput['order']) =>
      orderUpdate(input({ ...base, name: 'task.eta_moved', previousEta: '2026-06-01T10:40:00.000Z', eta }, { order }));
    const first = new Date('2026-06-01T10:40:00.000Z');
    expect(moved('2026-06-01T11:05:00.000Z', { eta: first, firstEta: first, slipRaised: false }).ticketChange).toEqual({});
    const slipped = moved('2026-06-01T11:10:00.000Z', { eta: first, firstEta: null, slipRaised: false });
    expect(slipped.ticketChange).toEqual({ priority: 'high' });
    expect(slipped.state).toMatchObject({ firstEta: first, slipRaised: true });
    expect(moved('2026-06-01T12:10:00.000Z', { eta: first, firstEta: first, slipRaised: true }).ticketChange).toEqual({});
    expect(raised('urgent')).toBe('urgent');
  });

  it('reopens urgent on a failure, and suggests resolving a delivery while pending', () => {
    const failed = orderUpdate(input({ ...base, name: 'task.status_changed', to: 'failed', statusAt: null }, { ticket: { status: 'pending', priority: 'low' } }));
    expect(failed.ticketChange).toEqual({ status: 'open', priority: 'urgent' });
    const off = orderUpdate(input({ ...base, name: 'task.status_changed', to: 'cancelled', statusAt: null }, { rules: { ...DEFAULT_ORDER_RULES, reopenOnFailure: false } }));
    expect(off.ticketChange).toEqual({});
    expect(orderUpdate(input({ ...base, name: 'task.status_changed', to: 'delivered', statusAt: null }, { ticket: { status: 'pending', priority: 'normal' } })).suggestion).toBe('resolve');
    expect(orderUpdate(input({ ...base, name: 'task.status_changed', to: 'delivered', statusAt: null })).suggestion).toBeNull();
  });
});

describe('the times an order update names', () => {
  it('are kept for a screen to say on its own clock', () => {
    expect(namedTimes({ name: 'task.eta_moved', eventId: 'e1', occurredAt: '2026-11-27T12:00:00Z', previousEta: '2026-11-27T12:40:00Z', eta: '2026-11-27T13:05:00Z' })).toEqual({ previousEta: '2026-11-27T12:40:00Z' });
    expect(namedTimes({ name: 'task.status_changed', eventId: 'e2', occurredAt: '2026-11-27T12:42:00Z', to: 'delivered', statusAt: null })).toEqual({ statusAt: '2026-11-27T12:42:00Z' });
    expect(namedTimes({ name: 'task.status_changed', eventId: 'e3', occurredAt: '2026-11-27T12:42:00Z', to: 'picked_up', statusAt: null })).toEqual({});
    expect(namedTimes({ name: 'task.rider_silent', eventId: 'e4', occurredAt: '2026-11-27T12:42:00Z', lastPositionAt: '2026-11-27T12:31:00Z' })).toEqual({ lastPositionAt: '2026-11-27T12:31:00Z' });
  });
});
