import { PlatformRejected, platformRefusalKind } from './platform-errors';

describe("the kind of a platform's refusal", () => {
  it.each([
    [400, 'invalid'],
    [401, 'forbidden'],
    [403, 'forbidden'],
    [404, 'not_found'],
    [409, 'conflict'],
    [410, 'upstream_rejected'],
    [422, 'upstream_rejected'],
  ])("keeps an action's %i as the caller's own refusal: %s", (status, kind) => {
    expect(platformRefusalKind({ status, invalidToken: false }, true)).toBe(kind);
  });

  it("makes every refusal of auth's own call the platform rejecting it", () => {
    for (const status of [400, 401, 403, 404, 409, 410]) expect(platformRefusalKind(new PlatformRejected(status, null, 'no'), false)).toBe('upstream_rejected');
  });

  it('makes a refused token a conflict, relayed or not: the account must be connected again', () => {
    const refused = new PlatformRejected(401, 89, 'Invalid or expired token.');
    expect([platformRefusalKind(refused, true), platformRefusalKind(refused, false)]).toEqual(['conflict', 'conflict']);
  });

  it('makes a refusal without a status the platform rejecting it', () => {
    expect(platformRefusalKind({ status: null, invalidToken: false }, true)).toBe('upstream_rejected');
  });
});
