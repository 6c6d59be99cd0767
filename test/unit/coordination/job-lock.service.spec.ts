import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { JobLockService } from '../../../src/coordination/job-lock.service';

/** The embedded-database path: an in-process try-lock, no database connection at all. */
function embeddedLocks(): JobLockService {
  const ds = {
    createQueryRunner: () => {
      throw new Error('the embedded path must not take a database connection');
    },
  } as unknown as DataSource;
  return new JobLockService(ds, { url: 'postgres://embedded', embedded: true, close: async () => undefined });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('JobLockService on the embedded database (in-process mutex)', () => {
  it('runs one of two concurrent calls for the same name, and the lock is free again afterwards', async () => {
    const locks = embeddedLocks();
    let running = 0;
    let maxRunning = 0;
    const slow = async () => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      await sleep(50);
      running--;
      return 'done';
    };
    const [a, b] = await Promise.all([locks.runExclusive('sync', slow), locks.runExclusive('sync', slow)]);
    expect([a.ran, b.ran].sort()).toEqual([false, true]);
    expect(maxRunning).toBe(1);
    const winner = a.ran ? a : b;
    expect(winner).toEqual({ ran: true, result: 'done' });
    expect(await locks.runExclusive('sync', async () => 7)).toEqual({ ran: true, result: 7 });
  });

  it('does not block other names', async () => {
    const locks = embeddedLocks();
    const [a, b] = await Promise.all([
      locks.runExclusive('one', () => sleep(20).then(() => 1)),
      locks.runExclusive('two', () => sleep(20).then(() => 2)),
    ]);
    expect(a).toEqual({ ran: true, result: 1 });
    expect(b).toEqual({ ran: true, result: 2 });
  });

  it('frees the lock when the job throws, and passes the error on', async () => {
    const locks = embeddedLocks();
    await expect(locks.runExclusive('sync', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await locks.runExclusive('sync', async () => 'again')).toEqual({ ran: true, result: 'again' });
  });
});
