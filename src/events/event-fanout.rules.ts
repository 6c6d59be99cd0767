/** Pure rules of the event fan-out (no Nest, no TypeORM). */

/** Exponential backoff with a cap: initial, 2x, 4x ... maxMs. `attempt` counts from 0. */
export function nextBackoffMs(attempt: number, o: { initialMs: number; maxMs: number }): number {
  const n = Math.max(0, Math.min(Math.floor(attempt), 30));
  return Math.min(o.maxMs, o.initialMs * 2 ** n);
}

/** The last `capacity` ids seen, in insertion order (oldest forgotten first): deduplicates deliveries. */
export class RecentIds {
  private readonly ids = new Set<string>();
  constructor(private readonly capacity: number) {
    if (capacity < 1) throw new Error('RecentIds needs a capacity of at least 1');
  }
  has(id: string): boolean {
    return this.ids.has(id);
  }
  add(id: string): void {
    if (this.ids.has(id)) return;
    this.ids.add(id);
    if (this.ids.size > this.capacity) {
      const oldest = this.ids.values().next().value as string;
      this.ids.delete(oldest);
    }
  }
  get size(): number {
    return this.ids.size;
  }
}

/** A hole in `seq` right after the cursor, and since when it has been seen. */
export interface SeqGap {
  expected: string;
  since: number;
}

export interface DeliveryPlan {
  /** How many of the rows (a prefix) to deliver now. */
  deliver: number;
  gap: SeqGap | null;
  /** Read again after this delay: a hole is younger than the grace period. */
  retryInMs: number | null;
}

/**
 * Which of the rows read after `cursor` (ascending `seq`) may be delivered now, keeping `seq` order.
 * `seq` is taken at insert and becomes visible at commit, so a hole right after the cursor is usually a
 * transaction still committing: delivery stops at the hole for up to `graceMs`. A hole older than that is a
 * rolled-back insert (sequences never reuse values) or a long transaction; it is passed (that event, if it ever
 * commits, is delivered late on its own notification).
 */
export function planDelivery(cursor: string, seqs: string[], gap: SeqGap | null, now: number, graceMs: number): DeliveryPlan {
  let expected = BigInt(cursor) + 1n;
  let g = gap;
  for (let i = 0; i < seqs.length; i++) {
    const s = BigInt(seqs[i]);
    if (s > expected) {
      if (!g || g.expected !== expected.toString()) g = { expected: expected.toString(), since: now };
      const waited = now - g.since;
      if (waited < graceMs) return { deliver: i, gap: g, retryInMs: graceMs - waited };
    }
    g = null;
    expected = s + 1n;
  }
  return { deliver: seqs.length, gap: null, retryInMs: null };
}
