import { checkTaskSeed, derivedTaskId } from './task-seed';

const valid = {
  assignedUser: { carrierClientId: 'carrier-1', userId: 'u-1' },
  sourceOrderId: 'order-42',
  orderDetail: { lineItems: [{ name: 'Masala tea', quantity: 2, id: 'li-1', price: { amount: 40, currency: 'INR', symbol: '₹' }, imageUrl: 'https://img/1.png' }] },
};

describe('task create body', () => {
  it('accepts the seed body, deriving a stable task id from the order', () => {
    const check = checkTaskSeed('acme', valid);
    expect(check).toEqual({ ok: true, seed: valid, taskId: derivedTaskId('acme', 'order-42') });
    expect(derivedTaskId('acme', 'order-42')).toMatch(/^so-[0-9a-f]{32}$/);
    expect(derivedTaskId('other', 'order-42')).not.toBe(derivedTaskId('acme', 'order-42'));
    expect(checkTaskSeed('acme', { ...valid, taskId: 'mine-1' })).toMatchObject({ ok: true, taskId: 'mine-1' });
  });

  it('names each bad field', () => {
    const check = checkTaskSeed('acme', {
      assignedUser: { carrierClientId: 7 },
      sourceOrderId: 42,
      orderDetail: { lineItems: [{ quantity: 'two', id: 3, price: { amount: '40', currency: 1, symbol: false }, imageUrl: {} }] },
    });
    expect(check.ok).toBe(false);
    const errors = check.ok ? [] : check.errors;
    expect(errors).toEqual(
      expect.arrayContaining([
        { field: 'assignedUser.userId', message: 'is required' },
        { field: 'assignedUser.carrierClientId', message: 'must be a string' },
        { field: 'sourceOrderId', message: 'must be a string' },
        { field: 'orderDetail.lineItems[0].name', message: 'is required' },
        { field: 'orderDetail.lineItems[0].quantity', message: 'must be a number' },
        { field: 'orderDetail.lineItems[0].id', message: 'must be a string' },
        { field: 'orderDetail.lineItems[0].price.amount', message: 'must be a number' },
        { field: 'orderDetail.lineItems[0].price.currency', message: 'must be a string' },
        { field: 'orderDetail.lineItems[0].price.symbol', message: 'must be a string' },
        { field: 'orderDetail.lineItems[0].imageUrl', message: 'must be a string' },
      ]),
    );
    expect(errors).toHaveLength(10);
  });

  it('requires a task id or an order id, so that a retried create is recognised', () => {
    expect(checkTaskSeed('acme', { assignedUser: valid.assignedUser })).toEqual({ ok: false, errors: [{ field: 'taskId', message: expect.stringContaining('sourceOrderId') }] });
    expect(checkTaskSeed('acme', [])).toEqual({ ok: false, errors: [{ field: '(body)', message: 'must be an object' }] });
    expect(checkTaskSeed('acme', { ...valid, taskId: 'has space' })).toMatchObject({ ok: false, errors: [{ field: 'taskId' }] });
  });
});
