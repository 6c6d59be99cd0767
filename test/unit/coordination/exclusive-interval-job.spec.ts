import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../../../src/config/app-config';
import { ExclusiveIntervalJob } from '../../../src/coordination/exclusive-interval-job';
import { JobLockService } from '../../../src/coordination/job-lock.service';
import { JobScheduling } from '../../../src/coordination/job-scheduling';
import { MetricsService } from '../../../src/metrics/metrics.service';

/** The one scheduled-job pattern, over the real JobLockService with a fake database session for the advisory lock. */
class CountingJob extends ExclusiveIntervalJob<number> {
  passes = 0;
  constructor(
    scheduling: JobScheduling,
    private readonly work: (n: number) => Promise<number> = async (n) => n,
  ) {
    super(scheduling, 'test.counting', 60_000);
  }
  protected pass(): Promise<number> {
    return this.work(++this.passes);
  }
}

/**
 * A real-server lock service whose `pg_try_advisory_xact_lock` answers `free()` (false: another instance holds it);
 * the lock lives in a transaction on its own connection, ended after the pass.
 */
function serverLocks(free: () => boolean): JobLockService {
  const runner = {
    connect: async () => undefined,
    release: async () => undefined,
    startTransaction: async () => undefined,
    commitTransaction: async () => undefined,
    query: async (sql: string) => (sql.includes('pg_try_advisory_xact_lock') ? [{ locked: free() }] : []),
  };
  const ds = { createQueryRunner: () => runner } as unknown as DataSource;
  return new JobLockService(ds, { url: 'postgres://server', embedded: false, close: async () => undefined });
}

function scheduling(locks: JobLockService, schedulerEnabled = false) {
  const registry = new SchedulerRegistry();
  const metrics = new MetricsService();
  return { registry, metrics, scheduling: new JobScheduling({ schedulerEnabled } as AppConfig, registry, locks, metrics) };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('ExclusiveIntervalJob', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('runs a pass when it takes the lock', async () => {
    const job = new CountingJob(scheduling(serverLocks(() => true)).scheduling);
    expect(await job.tick()).toBe(1);
    expect(await job.tick()).toBe(2);
  });

  it('skips the tick when another instance holds the lock', async () => {
    const job = new CountingJob(scheduling(serverLocks(() => false)).scheduling);
    expect(await job.tick()).toBeNull();
    expect(job.passes).toBe(0);
  });

  it('skips a tick while the previous pass is still running in this instance', async () => {
    const job = new CountingJob(scheduling(serverLocks(() => true)).scheduling, (n) => sleep(30).then(() => n));
    const [first, overlapping] = await Promise.all([job.tick(), sleep(5).then(() => job.tick())]);
    expect(first).toBe(1);
    expect(overlapping).toBeNull();
    expect(job.passes).toBe(1);
  });

  it('logs a failing pass, returns null, and runs the next tick as usual', async () => {
    const job = new CountingJob(scheduling(serverLocks(() => true)).scheduling, async (n) => {
      if (n === 1) throw new Error('boom');
      return n;
    });
    const logged = jest.spyOn((job as unknown as { logger: Logger }).logger, 'error');
    expect(await job.tick()).toBeNull();
    expect(logged).toHaveBeenCalledWith('test.counting failed: boom');
    expect(await job.tick()).toBe(2);
  });

  it('reports each tick to the metrics: ran with its duration and last success, skipped on a held lock, failed', async () => {
    let free = true;
    const s = scheduling(serverLocks(() => free));
    const job = new CountingJob(s.scheduling, async (n) => {
      if (n === 2) throw new Error('boom');
      return n;
    });
    jest.spyOn((job as unknown as { logger: Logger }).logger, 'error').mockImplementation(() => undefined);
    const before = Date.now() / 1000;
    await job.tick(); // ran
    await job.tick(); // failed
    free = false;
    await job.tick(); // skipped: another instance holds the lock
    const text = await s.metrics.registry.metrics();
    expect(text).toContain('job_runs_total{job="test.counting",outcome="ran"} 1');
    expect(text).toContain('job_runs_total{job="test.counting",outcome="failed"} 1');
    expect(text).toContain('job_runs_total{job="test.counting",outcome="skipped"} 1');
    expect(text).toContain('job_duration_seconds_count{job="test.counting",outcome="ran"} 1');
    expect(text).toContain('job_duration_seconds_count{job="test.counting",outcome="failed"} 1');
    const last = Number(/job_last_success_timestamp_seconds\{job="test.counting"\} (\S+)/.exec(text)![1]);
    expect(last).toBeGreaterThanOrEqual(before);
  });

  it('counts the claims a recovery pass settled, by kind and outcome', async () => {
    const s = scheduling(serverLocks(() => true));
    class Recovery extends ExclusiveIntervalJob<unknown> {
      constructor() {
        super(s.scheduling, 'checkout.recovery', 60_000);
      }
      protected async pass() {
        return { checked: 4, placed: 1, released: 2, left: 1 };
      }
    }
    await new Recovery().tick();
    const text = await s.metrics.registry.metrics();
    expect(text).toContain('money_claims_recovered_total{kind="checkout",outcome="placed"} 1');
    expect(text).toContain('money_claims_recovered_total{kind="checkout",outcome="released"} 2');
    expect(text).toContain('money_claims_recovered_total{kind="checkout",outcome="left"} 1');
  });

  it('registers its interval only when the scheduler is on, and removes it at shutdown', async () => {
    const off = scheduling(serverLocks(() => true), false);
    new CountingJob(off.scheduling).onApplicationBootstrap();
    expect(off.registry.getIntervals()).toEqual([]);

    const on = scheduling(serverLocks(() => true), true);
    const job = new CountingJob(on.scheduling);
    job.onApplicationBootstrap();
    expect(on.registry.getIntervals()).toEqual(['test.counting']);
    await job.beforeApplicationShutdown();
    expect(on.registry.getIntervals()).toEqual([]);
    expect(await job.tick()).toBeNull();
  });
});
