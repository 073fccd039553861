/** The ticket pane's pure parts: canned replies, the platform's limits, drafts' keys, the route still to go. */
import { fillCanned, orderStatusWords, textLength, textLimit } from '../../web/src/canned';
import { editDraft, emptyDraft } from '../../web/src/drafts';
import { remainingRoute } from '../../web/src/route';

describe('canned replies', () => {
  it('fills the customer, the order status in words and the ETA', () => {
    expect(fillCanned('Hi {customer}, your order is {order_status}, arriving {eta}.', { customer: 'Ana', orderStatus: 'STARTED', eta: '14:05' })).toBe('Hi Ana, your order is on its way, arriving 14:05.');
  });

  it('leaves a variable the ticket cannot fill as a visible placeholder', () => {
    expect(fillCanned('Hi {customer}: {order_status} at {eta}', { customer: null, orderStatus: null, eta: null })).toBe('Hi [customer]: [order status] at [eta]');
  });

  it('words an unknown status readably', () => {
    expect(orderStatusWords('OUT_FOR_PICKUP')).toBe('out for pickup');
  });
});

describe("the platform's limits", () => {
  it('is 10,000 for a DM and 280 for a public reply, counted in code points', () => {
    expect(textLimit('dm')).toBe(10_000);
    expect(textLimit('public')).toBe(280);
    expect(textLength('order 📦')).toBe(7);
  });
});

describe('drafts', () => {
  it('keeps the key while a draft is edited before it is sent, and renews it for an edit after a try', () => {
    const draft = { ...emptyDraft(), text: 'hello' };
    expect(editDraft(draft, 'hello there').idempotencyKey).toBe(draft.idempotencyKey);
    const tried = { ...draft, tried: true };
    expect(editDraft(tried, 'hello').idempotencyKey).toBe(draft.idempotencyKey);
    const edited = editDraft(tried, 'hello, Ana');
    expect(edited.idempotencyKey).not.toBe(draft.idempotencyKey);
    expect(edited.idempotencyKey).toMatch(/^[0-9a-f]{32}$/);
    expect(edited.tried).toBe(false);
  });
});

describe('the route still to go', () => {
  const route: [number, number][] = [
    [0, 0],
    [0, 10],
    [10, 10],
  ];

  it('starts at the rider and drops the legs behind it', () => {
    expect(remainingRoute(route, [1, 5])).toEqual([[1, 5], [0, 5], [0, 10], [10, 10]]);
    expect(remainingRoute(route, [5, 11])).toEqual([[5, 11], [5, 10], [10, 10]]);
  });

  it('keeps a route too short to cut', () => {
    expect(remainingRoute([[1, 1]], [0, 0])).toEqual([[1, 1]]);
  });
});
