import type { Pool, PoolClient } from 'pg';

type Warn = (message: string) => void;
const GUARDED = Symbol('connection-error-guard');
type Guardable = PoolClient & { [GUARDED]?: true };

/**
 * Every connection of `pool` keeps an 'error' listener for its whole life. node-postgres emits 'error' on a
 * connection the server ends between statements (an admin shutdown: a replica stopped fast, pg_terminate_backend, a
 * database dropped WITH (FORCE)). pg-pool listens while the connection is idle and TypeORM's query runner while it
 * holds one, but an 'error' with no listener at all is an uncaught exception that ends the process. This listener
 * only reports what nobody else heard; the pool and the runners still discard the dead connection.
 */
export function keepConnectionErrorsHeard(pool: Pool, warn: Warn): void {
  const guard = (client: Guardable) => {
    if (client[GUARDED]) return;
    client[GUARDED] = true;
    let reported = false;
    client.on('error', (err: Error) => {
      // Its end follows the server's message as a second 'error': one line per connection.
      if (reported || client.listenerCount('error') > 1) return;
      reported = true;
      warn(`a database connection failed while nothing listened (${err.message}); it is discarded`);
    });
  };
  // pg-pool emits 'acquire' on every checkout, a new connection's first one included: the listener is there before
  // anyone holds the connection, and an idle one has the pool's own listener.
  pool.on('acquire', guard);
}
