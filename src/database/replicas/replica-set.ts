import { Logger } from '@nestjs/common';
import type { Pool, QueryConfig } from 'pg';
import type { DataSource } from 'typeorm';
import type { ReplicaConfig } from '../../config/database-replicas.config';
import { redactedUrl } from '../../config/database-replicas.config';
import { keepConnectionErrorsHeard } from '../connection-errors';
import { PrimaryLsnHistory, replicaState, ReplicaState } from './replica-lag.rules';

/** One replica as /readyz and /metrics show it. */
export interface ReplicaStatus {
  replica: string;
  state: ReplicaState;
  lag_ms: number | null;
  replayed_lsn: string | null;
}

interface Replica {
  url: string;
  name: string;
  pool: Pool | null;
  state: ReplicaState;
  lagMs: number | null;
  replayed: string | null;
  /** When the replay position was read (a lower bound of the replica's position from then on). */
  lastProbeAt: number;
}

type PgDriver = {
  slaves: Pool[];
  options: object;
  createPool(options: object, credentials: object): Promise<Pool>;
};

/** How long a probe or a connection attempt to a replica may take before the replica counts as down. */
const PROBE_TIMEOUT_MS = 1000;

/**
 * The streaming replicas of DATABASE_READ_URL (issue 38), on TypeORM's own replication support: the DataSource is
 * built with `replication: { master, slaves: [], defaultMode: 'master' }`, so nothing goes to a replica unless a
 * caller asks for `createQueryRunner('slave')` (StaleReads). This monitor opens each replica's pool with the driver's
 * own `createPool` once the replica answers, probes it every DATABASE_READ_PROBE_MS, and keeps the driver's `slaves`
 * to the replicas within DATABASE_READ_MAX_LAG_MS: TypeORM picks among those, and with none it reads the primary.
 * A replica that is down or lagging is out of `slaves` until a probe finds it back within the bound.
 */
export class ReplicaSet {
  private readonly logger = new Logger('ReplicaSet');
  private readonly replicas: Replica[];
  private readonly history: PrimaryLsnHistory;
  private timer: NodeJS.Timeout | null = null;
  private probing: Promise<void> | null = null;
  private closed = false;

  constructor(
    private readonly ds: DataSource,
    private readonly config: ReplicaConfig,
  ) {
    this.replicas = config.readUrls.map((url) => ({ url, name: redactedUrl(url), pool: null, state: 'down', lagMs: null, replayed: null, lastProbeAt: 0 }));
    this.history = new PrimaryLsnHistory(Math.max(config.maxLagMs * 2, 10_000));
  }

  get enabled(): boolean {
    return this.replicas.length > 0;
  }

  /** Probes once (so a replica that is up serves from the first request), then every DATABASE_READ_PROBE_MS. */
  async start(): Promise<void> {
    if (!this.enabled) return;
    await this.probe();
    this.timer = setInterval(() => void this.probe(), this.config.probeMs);
    this.timer.unref();
  }

  /** Probes now (tests call it instead of waiting for the timer); concurrent calls share one probe. */
  probe(): Promise<void> {
    this.probing ??= this.probeAll().finally(() => (this.probing = null));
    return this.probing;
  }

  status(): ReplicaStatus[] {
    return this.replicas.map((r) => ({ replica: r.name, state: r.state, lag_ms: r.lagMs, replayed_lsn: r.replayed }));
  }

  /** The replica a pooled connection of `slaves` belongs to (by its connection's host, port and database). */
  replicaOf(params: { host?: string; port?: number; database?: string }): { name: string; replayed: string | null } | null {
    const key = `${params.host}:${params.port}/${params.database}`;
    const r = this.replicas.find((x) => x.pool && x.name === key);
    return r ? { name: r.name, replayed: r.replayed } : null;
  }

  /** Called when a read on a replica failed: out of `slaves` at once, until the next probe finds it answering. */
  markDown(name: string): void {
    const r = this.replicas.find((x) => x.name === name);
    if (!r || r.state === 'down') return;
    r.state = 'down';
    this.logger.warn(`replica ${r.name}: a read failed; skipped until it answers a probe`);
    this.publish();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.probing?.catch(() => undefined);
    this.driver().slaves = [];
    for (const r of this.replicas) {
      const pool = r.pool;
      r.pool = null;
      if (pool) await pool.end().catch(() => undefined);
    }
  }

  private driver(): PgDriver {
    return this.ds.driver as unknown as PgDriver;
  }

  private async probeAll(): Promise<void> {
    if (this.closed) return;
    try {
      const rows = (await this.ds.query('SELECT pg_current_wal_lsn()::text AS lsn')) as { lsn: string }[];
      this.history.add(Date.now(), rows[0]?.lsn ?? null);
    } catch {
      // The primary is unreachable: replicas keep their last state (readiness reports the primary itself).
    }
    await Promise.all(this.replicas.map((r) => this.probeOne(r)));
    this.publish();
  }

  private async probeOne(r: Replica): Promise<void> {
    const before = r.state;
    let answered = false;
    let inRecovery = false;
    try {
      if (!r.pool) {
        r.pool = await this.driver().createPool({ ...this.driver().options, connectTimeoutMS: PROBE_TIMEOUT_MS }, { url: r.url });
        keepConnectionErrorsHeard(r.pool, (m) => this.logger.warn(`replica ${r.name}: ${m}`));
      }
      const probe = { text: 'SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS replayed', query_timeout: PROBE_TIMEOUT_MS };
      const res = await r.pool.query<{ standby: boolean; replayed: string | null }>(probe as QueryConfig);
      const row = res.rows[0];
      answered = true;
      inRecovery = row?.standby === true;
      r.replayed = row?.replayed ?? null;
      r.lastProbeAt = Date.now();
    } catch (err) {
      if (before !== 'down') this.logger.warn(`replica ${r.name}: probe failed (${(err as Error).message})`);
    }
    r.lagMs = answered ? this.history.lagMs(r.replayed, Date.now()) : null;
    r.state = replicaState({ answered, inRecovery, lagMs: r.lagMs }, this.config.maxLagMs);
    if (r.state !== before) {
      const why = r.state === 'lagging' ? ` (lag ${r.lagMs ?? 'unknown'} ms, bound ${this.config.maxLagMs} ms)` : answered && !inRecovery ? ' (not a standby)' : '';
      this.logger.log(`replica ${r.name}: ${before} -> ${r.state}${why}`);
    }
  }

  /** The driver's `slaves`: the pools of the replicas that serve reads now. */
  private publish(): void {
    if (this.closed) return;
    this.driver().slaves = this.replicas.filter((r) => r.state === 'up' && r.pool).map((r) => r.pool!);
  }
}
