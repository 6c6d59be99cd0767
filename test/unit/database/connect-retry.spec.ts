import type { Pool, PoolClient } from 'pg';
import { retryRefusedConnects } from '../../../src/database/connect-retry';

/** A pool whose connect answers the given outcomes in turn (an error code, or a client). */
function fakePool(outcomes: (string | 'ok')[]): Pool & { calls: number } {
  const pool = {
    calls: 0,
    connect(cb: (err?: Error, client?: PoolClient, release?: () => void) => void) {
      const o = outcomes[Math.min(pool.calls++, outcomes.length - 1)];
      if (o === 'ok') cb(undefined, { id: 'client' } as unknown as PoolClient, () => undefined);
      else cb(Object.assign(new Error(o === 'terminated' ? 'Connection terminated unexpectedly' : `failed: ${o}`), { code: o }));
    },
  };
  return pool as unknown as Pool & { calls: number };
}

describe('retryRefusedConnects (issue 38)', () => {
  it('tries a refused connection again until the server answers (promise and callback forms)', async () => {
    const pool = fakePool(['ECONNREFUSED', 'terminated', 'ok']);
    retryRefusedConnects(pool, { forMs: 1000, stepMs: 5 });
    expect(await pool.connect()).toEqual({ id: 'client' });
    expect(pool.calls).toBe(3);

    const again = fakePool(['57P03', 'ok']);
    retryRefusedConnects(again, { forMs: 1000, stepMs: 5 });
    const client = await new Promise((resolve, reject) => again.connect((err, c) => (err ? reject(err) : resolve(c))));
    expect(client).toEqual({ id: 'client' });
    expect(again.calls).toBe(2);
  });

  it('gives up after its time, and never retries another failure', async () => {
    const down = fakePool(['ECONNREFUSED']);
    retryRefusedConnects(down, { forMs: 50, stepMs: 10 });
    await expect(down.connect()).rejects.toThrow('ECONNREFUSED');
    expect(down.calls).toBeGreaterThan(2);
    expect(down.calls).toBeLessThan(10);

    const wrong = fakePool(['28P01', 'ok']);
    retryRefusedConnects(wrong, { forMs: 1000, stepMs: 5 });
    await expect(wrong.connect()).rejects.toThrow('28P01');
    expect(wrong.calls).toBe(1);
  });
});
