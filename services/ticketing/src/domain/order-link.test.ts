import { followingMove } from './order-link';

describe("a linked ticket's following of its order, after a change of its status", () => {
  it('follows again when reopened or unmerged, and stops when resolved, closed or merged away', () => {
    const stopped = { following: false, status: 'out_for_delivery' };
    const following = { following: true, status: 'out_for_delivery' };
    expect(followingMove('open', stopped)).toBe('follow');
    expect(followingMove('pending', stopped)).toBe('follow');
    for (const status of ['resolved', 'closed', 'merged'] as const) expect(followingMove(status, following)).toBe('unfollow');
  });

  it('never sends a second follow nor a second unfollow', () => {
    expect(followingMove('open', { following: true, status: null })).toBeNull();
    expect(followingMove('closed', { following: false, status: null })).toBeNull();
  });

  it('follows an order of unknown status, never one known to have ended', () => {
    expect(followingMove('open', { following: false, status: null })).toBe('follow');
    for (const status of ['delivered', 'failed', 'cancelled']) expect(followingMove('open', { following: false, status })).toBeNull();
    // A ticket still following an ended order (tracking dropped it) is unfollowed when resolved, harmlessly.
    expect(followingMove('resolved', { following: true, status: 'delivered' })).toBe('unfollow');
  });
});
