import { ProfileCache } from '../http/api-routes';

const answer = (name: string) => ({ status: 200, body: { data: { name } }, headers: new Headers() });

describe("the customers' profile cache", () => {
  it('answers a profile for five minutes, then asks again', () => {
    let now = 0;
    const cache = new ProfileCache(() => now);
    cache.set('1001:ana', answer('Ana'));
    now = 299_000;
    expect(cache.get('1001:ana')?.body).toEqual({ data: { name: 'Ana' } });
    now = 301_000;
    expect(cache.get('1001:ana')).toBeNull();
    expect(cache.get('1001:bob')).toBeNull();
  });

  it('forgets the oldest profile when full', () => {
    const cache = new ProfileCache(() => 0);
    for (let i = 0; i < 501; i++) cache.set(`1001:user${i}`, answer(`user${i}`));
    expect(cache.get('1001:user0')).toBeNull();
    expect(cache.get('1001:user500')).not.toBeNull();
  });
});
