import type { Pool, PoolClient } from 'pg';

type Done = (err: Error | undefined, client?: PoolClient, release?: (err?: Error | boolean) => void) => void;

/** Refusals of a new connection: nothing of a request was sent yet, so trying again is safe. */
function refusedBeforeAnyQuery(err: Error & { code?: string }): boolean {
  // 57P03: the server is starting up or shutting down; the others: nothing listens yet, or the pooler went away
  // during the connection's start-up.
  return ['ECONNREFUSED', 'ECONNRESET', '57P03'].includes(err.code ?? '') || /Connection terminated/.test(err.message);
}

/**
 * Issue 38: a new connection the primary or PgBouncer refuses while it restarts is tried again every `stepMs` for up
 * to `forMs`, so a request that needs a connection during a short restart waits instead of failing. Only opening a
 * connection is retried, never a statement (a statement cut in flight may have run). Installed on the primary's pool.
 */
export function retryRefusedConnects(pool: Pool, opts: { forMs: number; stepMs: number } = { forMs: 5000, stepMs: 100 }): void {
  const connect = pool.connect.bind(pool) as unknown as (cb: Done) => void;
  const attempt = (deadline: number, done: Done): void =>
    connect((err, client, release) => {
      if (err && refusedBeforeAnyQuery(err) && Date.now() + opts.stepMs < deadline && !(pool as Pool & { ending?: boolean }).ending) {
        setTimeout(() => attempt(deadline, done), opts.stepMs);
        return;
      }
      done(err, client, release);
    });
  (pool as unknown as { connect: (cb?: Done) => unknown }).connect = (cb?: Done) => {
    const deadline = Date.now() + opts.forMs;
    if (cb) {
      attempt(deadline, cb);
      return undefined;
    }
    return new Promise<PoolClient>((resolve, reject) => attempt(deadline, (err, client) => (err ? reject(err) : resolve(client!))));
  };
}
