import fc from 'fast-check';
import { CommitSignals, EventPagesCache } from '../../../src/events/event-pages.cache';

/** Signals the test drives: commits to announce, and whether the barrier can be promised. */
class FakeSignals implements CommitSignals {
  private readonly listeners = new Set<() => void>();
  synced = true;
  barriers = 0;
  onCommitted(l: () => void) {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }
  barrier() {
    this.barriers++;
    return Promise.resolve(this.synced);
  }
  commit() {
    for (const l of this.listeners) l();
  }
}

function setup(opts: { ttlMs?: number; maxPages?: number } = {}) {
  const signals = new FakeSignals();
  let clock = 1_000;
  const cache = new EventPagesCache<string>(signals, { ttlMs: opts.ttlMs ?? 1000, maxPages: opts.maxPages ?? 8, now: () => clock });
  let reads = 0;
  let table = 'v0';
  const fill = () => {
    reads++;
    return Promise.resolve(table);
  };
  return {
    signals,
    cache,
    fill,
    reads: () => reads,
    write: (v: string) => {
      table = v;
      signals.commit();
    },
    advance: (ms: number) => (clock += ms),
  };
}

describe('EventPagesCache: a page is reused only while no event can have committed since it was read', () => {
  it('reads once, then answers from the page', async () => {
    const t = setup();
    expect(await t.cache.page('k', t.fill)).toBe('v0');
    expect(await t.cache.page('k', t.fill)).toBe('v0');
    expect(t.reads()).toBe(1);
    expect(t.signals.barriers).toBe(2); // every answer waits for the barrier
  });

  it('a commit signal drops every page: the next read sees the write', async () => {
    const t = setup();
    await t.cache.page('a', t.fill);
    await t.cache.page('b', t.fill);
    t.write('v1');
    expect(t.cache.size).toBe(0);
    expect(await t.cache.page('a', t.fill)).toBe('v1');
    expect(t.reads()).toBe(3);
  });

  it('without the barrier (listener down or slow) every request reads the database and nothing is kept', async () => {
    const t = setup();
    await t.cache.page('k', t.fill);
    t.signals.synced = false;
    t.write('v1'); // (a signal may be missed while the listener is down: the barrier's false covers it)
    expect(await t.cache.page('k', t.fill)).toBe('v1');
    expect(await t.cache.page('k', t.fill)).toBe('v1');
    expect(t.reads()).toBe(3);
  });

  it('a page read while a commit was signalled is not kept (it may predate the commit)', async () => {
    const t = setup();
    let release!: (v: string) => void;
    const slow = () => new Promise<string>((r) => (release = r));
    const first = t.cache.page('k', slow);
    await new Promise((r) => setImmediate(r));
    t.write('v1'); // commits while the read is running
    release('v0');
    expect(await first).toBe('v0'); // its own caller gets what it read
    expect(await t.cache.page('k', t.fill)).toBe('v1');
  });

  it('requests of one generation share one read in flight (no stampede after a commit)', async () => {
    const t = setup();
    let release!: (v: string) => void;
    let reads = 0;
    const slow = () => {
      reads++;
      return new Promise<string>((r) => (release = r));
    };
    const all = Promise.all([t.cache.page('k', slow), t.cache.page('k', slow), t.cache.page('k', slow)]);
    await new Promise((r) => setImmediate(r));
    release('v0');
    expect(await all).toEqual(['v0', 'v0', 'v0']);
    expect(reads).toBe(1);
  });

  it('a failed read is not kept: the next request reads again', async () => {
    const t = setup();
    await expect(t.cache.page('k', () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    expect(await t.cache.page('k', t.fill)).toBe('v0');
    expect(t.reads()).toBe(1);
  });

  it('a page older than the TTL is read again even without a signal (bounds a lost notification)', async () => {
    const t = setup({ ttlMs: 1000 });
    await t.cache.page('k', t.fill);
    t.advance(999);
    await t.cache.page('k', t.fill);
    expect(t.reads()).toBe(1);
    t.advance(1);
    await t.cache.page('k', t.fill);
    expect(t.reads()).toBe(2);
  });

  it('keeps at most maxPages, dropping the oldest', async () => {
    const t = setup({ maxPages: 2 });
    await t.cache.page('a', t.fill);
    await t.cache.page('b', t.fill);
    await t.cache.page('c', t.fill);
    expect(t.cache.size).toBe(2);
    await t.cache.page('b', t.fill);
    await t.cache.page('c', t.fill);
    expect(t.reads()).toBe(3);
    await t.cache.page('a', t.fill);
    expect(t.reads()).toBe(4);
  });

  it('property: after any interleaving of reads, writes and clock steps, a read that starts after a write sees it', async () => {
    type Step = { op: 'read'; key: number } | { op: 'write' } | { op: 'tick'; ms: number } | { op: 'down'; synced: boolean };
    const step = fc.oneof(
      fc.record({ op: fc.constant('read' as const), key: fc.integer({ min: 0, max: 3 }) }),
      fc.record({ op: fc.constant('write' as const) }),
      fc.record({ op: fc.constant('tick' as const), ms: fc.integer({ min: 0, max: 1500 }) }),
      fc.record({ op: fc.constant('down' as const), synced: fc.boolean() }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 60 }), async (steps: Step[]) => {
        const t = setup({ ttlMs: 1000, maxPages: 3 });
        let version = 0;
        for (const s of steps) {
          if (s.op === 'write') t.write(`v${++version}`);
          else if (s.op === 'tick') t.advance(s.ms);
          else if (s.op === 'down') t.signals.synced = s.synced;
          else expect(await t.cache.page(String(s.key), t.fill)).toBe(`v${version}`);
        }
      }),
      { numRuns: 300 },
    );
  });
});
