/**
 * Rendered `GET /events` pages (issue 21). The log only grows, and every page is "the newest N" for a filter, so a
 * page changes only when an event commits. A page is reused only while that is known not to have happened:
 *
 * - every commit the bus learns of (a local publish, a notification from any instance, a reconnect of the listening
 *   connection) starts a new generation and drops the pages;
 * - before answering from the cache, a request waits for the bus's barrier, which resolves once every event
 *   published before the request arrived has been signalled (on PostgreSQL, a round trip on the listening
 *   connection: PostgreSQL hands a session its pending notifications before the answer to its next query). Calls
 *   share barriers, so under load one round trip serves many requests;
 * - a page filled while the generation changed is not kept; a page older than `ttlMs` is filled again, which bounds
 *   what a lost notification (or a row written outside the service) can hide;
 * - when the bus cannot promise the barrier (the listening connection is down or slow), the page is read from the
 *   database as if there were no cache.
 * So a read that starts after a write's answer was sent, on any instance, sees the write.
 */
export interface CommitSignals {
  /** Calls `listener` whenever events may have been committed (or may have been missed). */
  onCommitted(listener: () => void): () => void;
  /** True once every event published before the call has reached `onCommitted` listeners; false if that cannot be promised now. */
  barrier(): Promise<boolean>;
}

export interface EventPagesCacheOptions {
  ttlMs: number;
  maxPages: number;
  now?: () => number;
}

interface Page<T> {
  generation: number;
  filledAt: number;
  value: Promise<T>;
}

export class EventPagesCache<T> {
  private generation = 0;
  private readonly pages = new Map<string, Page<T>>();
  private readonly now: () => number;
  private readonly stop: () => void;

  constructor(
    private readonly signals: CommitSignals,
    private readonly opts: EventPagesCacheOptions,
  ) {
    this.now = opts.now ?? Date.now;
    this.stop = signals.onCommitted(() => this.invalidate());
  }

  /** The page under `key`: reused while no event can have committed since it was read, else `fill()`ed. */
  async page(key: string, fill: () => Promise<T>): Promise<T> {
    if (!(await this.signals.barrier())) return fill();
    const generation = this.generation;
    const at = this.now();
    const held = this.pages.get(key);
    // A page of this generation (kept, or still being read: its read began after the generation did) answers.
    if (held && held.generation === generation && at - held.filledAt < this.opts.ttlMs) return held.value;
    const value = fill();
    const page: Page<T> = { generation, filledAt: at, value };
    this.keep(key, page);
    value.then(
      () => {
        // Read while the generation changed: it may predate the commit that changed it.
        if (this.generation !== generation) this.drop(key, page);
      },
      () => this.drop(key, page),
    );
    return value;
  }

  invalidate(): void {
    this.generation++;
    this.pages.clear();
  }

  get size(): number {
    return this.pages.size;
  }

  close(): void {
    this.stop();
    this.pages.clear();
  }

  private keep(key: string, page: Page<T>): void {
    this.pages.delete(key);
    if (this.pages.size >= this.opts.maxPages) {
      const oldest = this.pages.keys().next().value;
      if (oldest !== undefined) this.pages.delete(oldest);
    }
    this.pages.set(key, page);
  }

  private drop(key: string, page: Page<T>): void {
    if (this.pages.get(key) === page) this.pages.delete(key);
  }
}
