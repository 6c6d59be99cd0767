import { Logger } from '@nestjs/common';
import { Client, Notification } from 'pg';
import { EventBus, signalAll } from './event-bus';
import { EventEntity } from './event.entity';
import { nextBackoffMs, planDelivery, RecentIds, SeqGap } from './event-fanout.rules';
import { RunAfterCall } from './run-after-call';

/** The NOTIFY channel every instance LISTENs on; the payload is only the event id (so any event size fits). */
export const EVENTS_CHANNEL = 'ucp_events';
/** application_name of the listening connection (visible in pg_stat_activity). */
export const EVENTS_LISTENER_APP = 'vending-commerce-events';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PAGE = 200;
/** How long delivery waits at a hole in `seq` for the transaction that holds it to commit. */
export const SEQ_GAP_GRACE_MS = 500;
/** A barrier slower than this answers false (its callers read the database instead of waiting on a slow connection). */
export const BARRIER_TIMEOUT_MS = 250;

/** What the bus reads from the events table (EventsRepository). */
export interface EventFeed {
  maxSeq(): Promise<string>;
  listAfterSeq(seq: string, limit: number): Promise<EventEntity[]>;
  findById(id: string): Promise<EventEntity | null>;
}

export interface PgEventBusOptions {
  /** Connection URL of the shared database (never logged: it may carry a password). */
  url: string;
  /** Sends NOTIFY on a pooled connection. */
  notify: (channel: string, payload: string) => Promise<void>;
  feed: EventFeed;
  /** Reconnect backoff of the listening connection. */
  backoff?: { initialMs: number; maxMs: number };
  /** Interval of the liveness probe on the listening connection (a half-open TCP connection never errors by itself). */
  probeIntervalMs?: number;
  barrierTimeoutMs?: number;
}

/**
 * Fan-out of stored events to every instance sharing one PostgreSQL server.
 *
 * `publish` sends `NOTIFY ucp_events, '<id>'` once the event is committed. Each instance holds one dedicated
 * connection that LISTENs on the channel. A notification does not carry the event: it wakes a pump that reads
 * every event with `seq` above the last one delivered, in `seq` order, and hands them to the local listeners;
 * so every instance delivers in `seq` order, whatever order the notifications arrive in, and an event committed
 * while the connection was down is caught up after the reconnect (with backoff).
 * `seq` is taken at insert but visible at commit: at a hole right after the cursor delivery waits up to
 * SEQ_GAP_GRACE_MS for the transaction holding it, then passes it (a rolled-back insert leaves a permanent hole).
 * An event committed even later (a long transaction) is delivered on its own notification: late rather than never.
 */
export class PgNotifyEventBus extends EventBus {
  private readonly logger = new Logger('PgNotifyEventBus');
  private readonly listeners = new Set<(event: EventEntity) => void>();
  private readonly committed = new Set<() => void>();
  private readonly barriers = new RunAfterCall(() => this.roundTrip());
  private busy: Promise<unknown> | null = null;
  private readonly delivered = new RecentIds(10_000);
  private readonly notified = new Set<string>();
  private client: Client | null = null;
  private cursor = '0';
  private closed = false;
  private attempt = 0;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private probeTimer: NodeJS.Timeout | null = null;
  private pumping: Promise<void> | null = null;
  private pumpAgain = false;
  private gap: SeqGap | null = null;
  private retryTimer: NodeJS.Timeout | null = null;

  constructor(private readonly opts: PgEventBusOptions) {
    super();
  }

  /** Starts after the newest stored event and opens the listening connection (retried in the background). */
  async start(): Promise<void> {
    this.cursor = await this.opts.feed.maxSeq();
    await this.connect();
    const every = this.opts.probeIntervalMs ?? 30_000;
    this.probeTimer = setInterval(() => void this.probe(), every);
    this.probeTimer.unref();
  }

  async publish(event: EventEntity): Promise<void> {
    // This instance learns of its own commit at once, whatever becomes of the NOTIFY.
    signalAll(this.committed);
    await this.opts.notify(EVENTS_CHANNEL, event.id);
  }

  onCommitted(listener: () => void): () => void {
    this.committed.add(listener);
    return () => this.committed.delete(listener);
  }

  /**
   * A round trip on the listening connection, shared by every caller that arrived before it started: PostgreSQL
   * hands a listening session its pending notifications before the answer to its next query, so when it returns,
   * every NOTIFY committed before the call has been signalled. False without a listening connection, when the
   * connection changes meanwhile, on an error, or past BARRIER_TIMEOUT_MS.
   */
  barrier(): Promise<boolean> {
    if (!this.client || this.closed) return Promise.resolve(false);
    return this.barriers.call();
  }

  private async roundTrip(): Promise<boolean> {
    const c = this.client;
    // One query at a time on the listening connection: while an earlier round trip that gave up is still out, there
    // is no barrier (its callers read the database).
    if (!c || this.closed || this.busy) return false;
    const query = c.query('').finally(() => {
      if (this.busy === query) this.busy = null;
    });
    this.busy = query;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), this.opts.barrierTimeoutMs ?? BARRIER_TIMEOUT_MS);
    });
    const answered = query.then(
      () => this.client === c,
      (err: Error) => {
        // The listening connection failed (query_timeout on a half-open connection, or an error): reconnect.
        c.emit('error', err);
        return false;
      },
    );
    try {
      return await Promise.race([answered, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  subscribe(listener: (event: EventEntity) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** True while the listening connection is up (for tests and diagnostics). */
  get listening(): boolean {
    return this.client !== null;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.probeTimer) clearInterval(this.probeTimer);
    const c = this.client;
    this.client = null;
    if (c) await c.end().catch(() => undefined);
    if (this.pumping) await this.pumping.catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const c = new Client({
      connectionString: this.opts.url,
      application_name: EVENTS_LISTENER_APP,
      keepAlive: true,
      query_timeout: 10_000,
    });
    let dropped = false;
    const onDrop = (why: string) => {
      if (dropped) return;
      dropped = true;
      if (this.client === c) this.client = null;
      // Notifications may be missed until the next connection listens.
      signalAll(this.committed);
      c.removeAllListeners('notification');
      c.end().catch(() => undefined);
      if (!this.closed) {
        this.logger.warn(`event listener connection lost (${why}); reconnecting`);
        this.scheduleReconnect();
      }
    };
    c.on('error', (err) => onDrop(err.message));
    c.on('end', () => onDrop('connection ended'));
    c.on('notification', (n: Notification) => this.onNotification(n));
    try {
      await c.connect();
      await c.query(`LISTEN ${EVENTS_CHANNEL}`);
    } catch (err) {
      onDrop((err as Error).message);
      return;
    }
    if (this.closed || dropped) {
      await c.end().catch(() => undefined);
      return;
    }
    this.client = c;
    // Commits made while nothing listened were never signalled here.
    signalAll(this.committed);
    if (this.attempt > 0) this.logger.log('event listener connection restored');
    this.attempt = 0;
    // Anything committed while no connection listened is read now.
    this.requestPump();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.reconnectTimer) return;
    const delay = nextBackoffMs(this.attempt++, this.opts.backoff ?? { initialMs: 200, maxMs: 10_000 });
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      void this.connect();
    }, delay);
    this.reconnectTimer.unref();
  }

  /** The liveness probe is a barrier: its round trip fails on a dead connection, which then reconnects. */
  private async probe(): Promise<void> {
    if (this.client && !this.closed) await this.barriers.call();
  }

  private onNotification(n: Notification): void {
    if (n.channel !== EVENTS_CHANNEL) return;
    signalAll(this.committed);
    const id = n.payload ?? '';
    if (UUID.test(id) && !this.delivered.has(id)) this.notified.add(id);
    this.requestPump();
  }

  private requestPump(): void {
    if (this.closed) return;
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = (async () => {
      do {
        this.pumpAgain = false;
        await this.pumpOnce();
      } while (this.pumpAgain && !this.closed);
    })()
      .catch((err: Error) => {
        // The next notification (or reconnect) pumps again from the same cursor: nothing is skipped.
        this.logger.warn(`event fan-out read failed: ${err.message}`);
      })
      .finally(() => {
        this.pumping = null;
      });
  }

  private async pumpOnce(): Promise<void> {
    for (;;) {
      if (this.closed) return;
      const rows = await this.opts.feed.listAfterSeq(this.cursor, PAGE);
      const plan = planDelivery(this.cursor, rows.map((r) => String(r.seq)), this.gap, Date.now(), SEQ_GAP_GRACE_MS);
      this.gap = plan.gap;
      for (const row of rows.slice(0, plan.deliver)) {
        this.cursor = String(row.seq);
        this.deliver(row);
      }
      if (plan.retryInMs !== null) {
        this.retryAfter(plan.retryInMs);
        break;
      }
      if (rows.length < PAGE) break;
    }
    // A notified event behind the cursor was committed after the cursor passed its hole: deliver it late rather
    // than never. One ahead of the cursor waits at a hole and comes with the next read.
    for (const id of [...this.notified]) {
      this.notified.delete(id);
      if (this.delivered.has(id) || this.closed) continue;
      const row = await this.opts.feed.findById(id);
      if (row && BigInt(row.seq) <= BigInt(this.cursor)) this.deliver(row);
    }
  }

  private retryAfter(ms: number): void {
    if (this.retryTimer || this.closed) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.requestPump();
    }, ms + 5);
    this.retryTimer.unref();
  }

  private deliver(row: EventEntity): void {
    if (this.delivered.has(row.id)) return;
    this.delivered.add(row.id);
    this.notified.delete(row.id);
    for (const l of this.listeners) {
      try {
        l(row);
      } catch (err) {
        this.logger.warn(`event listener failed on ${row.id}: ${(err as Error).message}`);
      }
    }
  }
}
