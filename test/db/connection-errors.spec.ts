import { Pool } from 'pg';
import { keepConnectionErrorsHeard } from '../../src/database/connection-errors';
import { adminQuery, ADMIN_URL } from '../support/pg';
import { waitUntil } from '../support/wait-until';

/**
 * A connection the server ends while it is checked out and between statements (what a replica's fast shutdown or a
 * DROP DATABASE ... WITH (FORCE) does) must not end the process: node-postgres emits 'error' on it, and with no
 * listener that is an uncaught exception.
 */
describe('keepConnectionErrorsHeard: a connection ended by the server while checked out', () => {
  const pools: Pool[] = [];
  const newPool = (app: string) => {
    const pool = new Pool({ connectionString: ADMIN_URL, application_name: app, max: 2 });
    pool.on('error', () => undefined); // the pool's own event for idle connections (TypeORM listens to it)
    pools.push(pool);
    return pool;
  };
  const terminate = (app: string) => adminQuery(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '${app}'`);
  afterAll(() => Promise.all(pools.map((p) => p.end())));

  it('without it, a checked-out connection has no error listener (the premise)', async () => {
    const pool = newPool(`unguarded-${process.pid}`);
    const client = await pool.connect();
    try {
      expect(client.listenerCount('error')).toBe(0);
    } finally {
      client.release();
    }
  });

  it('with it, the server ending the connection is reported once, and the pool discards the connection', async () => {
    const app = `guarded-${process.pid}`;
    const pool = newPool(app);
    // A connection opened before the guard (as TypeORM opens one while it initializes) is guarded too.
    (await pool.connect()).release();
    const warnings: string[] = [];
    keepConnectionErrorsHeard(pool, (m) => warnings.push(m));
    const client = await pool.connect();
    try {
      expect(client.listenerCount('error')).toBe(1);
      const ended = new Promise((resolve, reject) => {
        client.once('end', resolve);
        setTimeout(() => reject(new Error('the connection did not end')), 5000).unref();
      });
      await terminate(app);
      await ended;
      expect(warnings).toEqual([expect.stringMatching(/^a database connection failed while nothing listened \(terminating connection due to administrator command\)/)]);
    } finally {
      client.release();
    }
    await waitUntil(async () => pool.totalCount === 0, { what: 'the dead connection is discarded', timeoutMs: 2000 });
    // A new connection works, and is guarded from its start.
    const next = await pool.connect();
    try {
      expect((await next.query<{ one: number }>('SELECT 1 AS one')).rows[0].one).toBe(1);
      expect(next.listenerCount('error')).toBe(1);
    } finally {
      next.release();
    }
  });

  it('stays silent when someone else listens (an idle connection in the pool, a query runner holding one)', async () => {
    const app = `heard-${process.pid}`;
    const pool = newPool(app);
    const warnings: string[] = [];
    keepConnectionErrorsHeard(pool, (m) => warnings.push(m));
    const held = await pool.connect();
    const heard: string[] = [];
    held.on('error', (e) => heard.push(e.message));
    const idle = await pool.connect();
    idle.release();
    await terminate(app);
    await waitUntil(async () => heard.length > 0 && pool.idleCount === 0, { what: 'both connections ended', timeoutMs: 2000 });
    held.release(new Error('ended by the server'));
    expect(warnings).toEqual([]);
  });
});
