import { nextBackoffMs, planDelivery, RecentIds } from '../../../src/events/event-fanout.rules';

describe('nextBackoffMs', () => {
  it('doubles from the initial delay up to the cap', () => {
    const o = { initialMs: 200, maxMs: 10_000 };
    expect([0, 1, 2, 3, 4, 5, 6, 7, 100].map((a) => nextBackoffMs(a, o))).toEqual([200, 400, 800, 1600, 3200, 6400, 10_000, 10_000, 10_000]);
  });
  it('treats a negative attempt as the first', () => {
    expect(nextBackoffMs(-3, { initialMs: 50, maxMs: 1000 })).toBe(50);
  });
});

describe('RecentIds', () => {
  it('remembers the last ids up to its capacity, forgetting the oldest first', () => {
    const r = new RecentIds(3);
    ['a', 'b', 'c'].forEach((id) => r.add(id));
    expect(r.has('a')).toBe(true);
    r.add('d');
    expect(r.has('a')).toBe(false);
    expect(['b', 'c', 'd'].every((id) => r.has(id))).toBe(true);
    r.add('d');
    expect(r.size).toBe(3);
  });
  it('needs a positive capacity', () => {
    expect(() => new RecentIds(0)).toThrow();
  });
});

describe('planDelivery', () => {
  const GRACE = 500;
  it('delivers consecutive seqs at once', () => {
    expect(planDelivery('10', ['11', '12', '13'], null, 0, GRACE)).toEqual({ deliver: 3, gap: null, retryInMs: null });
    expect(planDelivery('10', [], null, 0, GRACE)).toEqual({ deliver: 0, gap: null, retryInMs: null });
  });

  it('stops at a fresh hole and asks to read again when the grace ends', () => {
    const p = planDelivery('10', ['11', '13', '14'], null, 1000, GRACE);
    expect(p).toEqual({ deliver: 1, gap: { expected: '12', since: 1000 }, retryInMs: 500 });
    const again = planDelivery('11', ['13', '14'], p.gap, 1200, GRACE);
    expect(again).toEqual({ deliver: 0, gap: { expected: '12', since: 1000 }, retryInMs: 300 });
  });

  it('delivers in order once the hole fills', () => {
    expect(planDelivery('11', ['12', '13', '14'], { expected: '12', since: 1000 }, 1100, GRACE)).toEqual({
      deliver: 3,
      gap: null,
      retryInMs: null,
    });
  });

  it('passes a hole older than the grace (a rolled-back insert)', () => {
    expect(planDelivery('11', ['13', '14'], { expected: '12', since: 1000 }, 1500, GRACE)).toEqual({
      deliver: 2,
      gap: null,
      retryInMs: null,
    });
  });

  it('starts a new wait for a later hole', () => {
    const p = planDelivery('11', ['13', '20'], { expected: '12', since: 0 }, 1000, GRACE);
    expect(p).toEqual({ deliver: 1, gap: { expected: '14', since: 1000 }, retryInMs: 500 });
  });

  it('handles seqs beyond 2^53', () => {
    expect(planDelivery('9007199254740993', ['9007199254740994'], null, 0, GRACE).deliver).toBe(1);
    expect(planDelivery('9007199254740993', ['9007199254740995'], null, 0, GRACE).deliver).toBe(0);
  });
});
