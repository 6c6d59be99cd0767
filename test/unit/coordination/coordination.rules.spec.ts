import { InProcessLocks, jobLockKey } from '../../../src/coordination/coordination.rules';

describe('jobLockKey', () => {
  it('is a stable signed 64-bit integer per name', () => {
    const k = jobLockKey('sales-sync');
    expect(k).toBe(jobLockKey('sales-sync'));
    expect(k).toMatch(/^-?\d+$/);
    const n = BigInt(k);
    expect(n >= -(2n ** 63n) && n < 2n ** 63n).toBe(true);
    // Pinned: the key must not change between versions, or two versions running side by side would not exclude.
    expect(jobLockKey('sales-sync')).toBe('4244473505219386239');
  });

  it('differs between names and never equals the migration lock', () => {
    const names = ['sales-sync', 'inventory-sync', 'restock-follow', 'a', 'b', 'sales-sync '];
    const keys = new Set(names.map(jobLockKey));
    expect(keys.size).toBe(names.length);
    expect(keys.has('727100001')).toBe(false);
  });

  it('refuses an empty name', () => {
    expect(() => jobLockKey('')).toThrow();
  });
});

describe('InProcessLocks', () => {
  it('lets one holder per name at a time and frees the name on release', () => {
    const locks = new InProcessLocks();
    const release = locks.tryAcquire('job');
    expect(release).not.toBeNull();
    expect(locks.tryAcquire('job')).toBeNull();
    expect(locks.tryAcquire('other')).not.toBeNull();
    release!();
    expect(locks.isHeld('job')).toBe(false);
    expect(locks.tryAcquire('job')).not.toBeNull();
  });

  it('ignores a second release (it cannot free a later holder)', () => {
    const locks = new InProcessLocks();
    const first = locks.tryAcquire('job')!;
    first();
    const second = locks.tryAcquire('job')!;
    first();
    expect(locks.isHeld('job')).toBe(true);
    second();
    expect(locks.isHeld('job')).toBe(false);
  });
});
