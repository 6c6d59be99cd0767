import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { claimKindOfJob, recoveredOutcomes } from './metrics.rules';

/** What the metrics read when scraped: money claims (the claims module), approvals and the pool (MetricsRepository), replicas. */
export interface ScrapeSources {
  claims(): Promise<{ kind: string; held: number; past_lease: number }[]>;
  approvalsPending(): Promise<number>;
  pool(): { max: number; total: number; idle: number; waiting: number } | null;
  /** Issue 38: each read replica's state and lag (none without DATABASE_READ_URL). */
  replicas?(): { replica: string; state: string; lag_ms: number | null }[];
}

const REPLICA_STATES = ['up', 'lagging', 'down'] as const;

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * The service's Prometheus metrics (issue 28), one registry per app (tests run several apps in one process). Other
 * code reports through the few `observe*` methods; the scrape reads the database-held states (money claims,
 * approvals) and the pool at that moment. Names and labels are listed in docs/operations.md.
 */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();
  private sources: Partial<ScrapeSources> = {};

  private readonly requests = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: SECONDS,
    registers: [this.registry],
  });
  private readonly partnerCalls = new Histogram({
    name: 'partner_request_duration_seconds',
    help: 'Partner HTTP calls by namespace, endpoint and outcome (ok, unreachable, rejected, unauthorized, malformed)',
    labelNames: ['namespace', 'endpoint', 'outcome'] as const,
    buckets: SECONDS,
    registers: [this.registry],
  });
  private readonly jobRuns = new Counter({
    name: 'job_runs_total',
    help: 'Scheduled job ticks by job and outcome: ran, failed, or skipped (its lock held here or on another instance)',
    labelNames: ['job', 'outcome'] as const,
    registers: [this.registry],
  });
  private readonly jobDuration = new Histogram({
    name: 'job_duration_seconds',
    help: 'Duration of the passes a job ran, by job and outcome',
    labelNames: ['job', 'outcome'] as const,
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300],
    registers: [this.registry],
  });
  private readonly jobLastSuccess = new Gauge({
    name: 'job_last_success_timestamp_seconds',
    help: 'Unix time at which the job last finished a pass without failing, on this instance',
    labelNames: ['job'] as const,
    registers: [this.registry],
  });
  private readonly recovered = new Counter({
    name: 'money_claims_recovered_total',
    help: 'Interrupted money claims the recovery passes read, by kind and outcome: placed, released, left (partner unclear)',
    labelNames: ['kind', 'outcome'] as const,
    registers: [this.registry],
  });
  private readonly eventLag = new Histogram({
    name: 'event_bus_delivery_lag_seconds',
    help: 'From an event being stored (its occurred_at, the database clock at its transaction) to its delivery to this instance\'s listeners (sockets, page cache)',
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    const self = this;
    new Gauge({
      name: 'money_claims',
      help: 'Money claims held now by kind and state: in_flight (claimed, lease running) and past_lease (unsettled past the lease)',
      labelNames: ['kind', 'state'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const c of (await self.sources.claims?.()) ?? []) {
          this.set({ kind: c.kind, state: 'in_flight' }, c.held - c.past_lease);
          this.set({ kind: c.kind, state: 'past_lease' }, c.past_lease);
        }
      },
    });
    new Gauge({
      name: 'approvals_pending',
      help: 'Approvals waiting for the owner',
      registers: [this.registry],
      async collect() {
        if (self.sources.approvalsPending) this.set(await self.sources.approvalsPending());
      },
    });
    new Gauge({
      name: 'db_pool_connections',
      help: 'Database pool connections by state: max, total (open), idle, waiting (queries queued for a connection)',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        const p = self.sources.pool?.();
        if (!p) return;
        for (const [state, n] of Object.entries(p)) this.set({ state }, n);
      },
    });
  }

  private readonly reads = new Counter({
    name: 'db_reads_total',
    help: 'Reads that may be a little stale, by where they went: target replica (replica names it) or primary (reason: no_replica, in_transaction, own_write, replica_failed)',
    labelNames: ['target', 'replica', 'reason'] as const,
    registers: [this.registry],
  });

  private readonly replicaGauges = [
    new Gauge({
      name: 'db_replica_lag_seconds',
      help: 'Each read replica: seconds since the primary first had WAL the replica has not replayed (absent when unknown)',
      labelNames: ['replica'] as const,
      registers: [this.registry],
      collect: () => this.collectReplicas(),
    }),
    new Gauge({
      name: 'db_replica_state',
      help: 'Each read replica: 1 for its current state (up: serves reads; lagging: past DATABASE_READ_MAX_LAG_MS; down: not answering), 0 for the others',
      labelNames: ['replica', 'state'] as const,
      registers: [this.registry],
    }),
  ];

  private collectReplicas(): void {
    const [lag, state] = this.replicaGauges;
    lag.reset();
    state.reset();
    for (const r of this.sources.replicas?.() ?? []) {
      if (r.lag_ms !== null) lag.set({ replica: r.replica }, r.lag_ms / 1000);
      for (const s of REPLICA_STATES) state.set({ replica: r.replica, state: s }, r.state === s ? 1 : 0);
    }
  }

  /** Where the scrape reads: each module that reports gives its own sources once (the metrics module, the claims module). */
  useSources(sources: Partial<ScrapeSources>): void {
    this.sources = { ...this.sources, ...sources };
  }

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.requests.observe({ method, route, status: String(status) }, seconds);
  }

  observePartnerCall(namespace: string, endpoint: string, outcome: string, seconds: number): void {
    this.partnerCalls.observe({ namespace, endpoint, outcome }, seconds);
  }

  /** One tick of a scheduled job: `skipped` when its lock was held; a recovery pass's tally counts its claims. */
  observeJob(job: string, outcome: 'ran' | 'failed' | 'skipped', seconds: number, result?: unknown): void {
    this.jobRuns.inc({ job, outcome });
    if (outcome === 'skipped') return;
    this.jobDuration.observe({ job, outcome }, seconds);
    if (outcome !== 'ran') return;
    this.jobLastSuccess.set({ job }, Date.now() / 1000);
    const t = job.endsWith('.recovery') ? recoveredOutcomes(result) : null; // the recovery schedulers' passes
    if (!t) return;
    const kind = claimKindOfJob(job);
    for (const [outcome, n] of Object.entries(t)) if (n > 0) this.recovered.inc({ kind, outcome }, n);
  }

  /** Where a stale-ok read went (StaleReads). */
  observeRead(route: { target: 'replica'; replica: string } | { target: 'primary'; reason: string }): void {
    if (route.target === 'replica') this.reads.inc({ target: 'replica', replica: route.replica, reason: '' });
    else this.reads.inc({ target: 'primary', replica: '', reason: route.reason });
  }

  observeEventDelivered(storedAt: Date): void {
    this.eventLag.observe(Math.max(0, (Date.now() - storedAt.getTime()) / 1000));
  }

  /** The text exposition of every metric (reads the database-held states first). */
  async render(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }
}
