import { MemoryRateLimitStore } from '../../../src/common/rate-limit/rate-limit.store';

/** Issue 37: a hit reads the watched bucket (the caller's address) without counting there; peek counts nothing. */
describe('the in-memory rate-limit store (embedded database)', () => {
  it('a hit with a watched bucket answers that bucket\'s count and adds nothing to it', async () => {
    const store = new MemoryRateLimitStore();
    for (let i = 0; i < 3; i++) await store.hit('address:a', 1, 60_000);
    const r = await store.hit('credential:operator', 1, 60_000, 'address:a');
    expect(r.count).toBe(1);
    expect(r.watched?.count).toBe(3);
    expect((await store.peek('address:a'))?.count).toBe(3);
    expect((await store.hit('credential:operator', 1, 60_000, 'address:b')).watched).toBeNull();
  });

  it('a window that has ended is not read', async () => {
    const store = new MemoryRateLimitStore();
    await store.hit('address:a', 5, 1);
    await new Promise((r) => setTimeout(r, 5));
    expect(await store.peek('address:a')).toBeNull();
    expect((await store.hit('credential:operator', 1, 60_000, 'address:a')).watched).toBeNull();
  });
});
