/**
 * Issue 38: what a statement's failure says when its connection to the database (or to PgBouncer in front of it)
 * died while the statement was in flight, as on a hard restart of the pooler or the primary.
 *
 * - `none`: not a lost connection (an ordinary error: a constraint, a syntax error, a DomainError).
 * - `cut`: the connection died before the statement's answer came; if the statement was part of an open transaction
 *   and was not its COMMIT, the server rolled the transaction back (a transaction never outlives its session).
 * - `commit_unknown`: the connection died after COMMIT was sent and before its answer: the transaction may or may not
 *   have committed. Never run again; only a later read (or an Idempotency-Key) can tell.
 */
export type ConnectionLoss = 'none' | 'cut' | 'commit_unknown';

/** node-postgres socket errors of a connection that went away. */
const SOCKET_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'ENOTCONN', 'ECONNABORTED']);
/** SQLSTATEs of a session ended by the server: admin_shutdown, crash_shutdown, cannot_connect_now. */
const SHUTDOWN_CODES = new Set(['57P01', '57P02', '57P03']);
/** What node-postgres (and PgBouncer's own error texts) say when a connection ends under a query. */
const LOST_TEXT = /Connection terminated|connection error and is not queryable|terminating connection|server conn crashed|server closed the connection|client_login_timeout|pgbouncer cannot connect to server/i;

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  query?: unknown;
  driverError?: unknown;
}

function lostConnection(err: ErrorLike): boolean {
  // TypeORM's runner releases itself when its connection reports an error: a later statement on it finds it released.
  if ((err as { name?: unknown }).name === 'QueryRunnerAlreadyReleasedError') return true;
  const code = typeof err.code === 'string' ? err.code : '';
  // Class 08: connection exceptions.
  if (SOCKET_CODES.has(code) || SHUTDOWN_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
  return typeof err.message === 'string' && LOST_TEXT.test(err.message);
}

/** Classifies an error thrown by a query (a TypeORM QueryFailedError carries the driver's error and the statement). */
export function connectionLoss(err: unknown): ConnectionLoss {
  if (!err || typeof err !== 'object') return 'none';
  const e = err as ErrorLike;
  const driver = e.driverError && typeof e.driverError === 'object' ? (e.driverError as ErrorLike) : null;
  if (!lostConnection(e) && !(driver && lostConnection(driver))) return 'none';
  const query = typeof e.query === 'string' ? e.query.trim().toUpperCase() : '';
  return query === 'COMMIT' || query.startsWith('COMMIT ') || query === 'END' ? 'commit_unknown' : 'cut';
}

const READ_START = /^\s*(\(\s*)*(SELECT|WITH|SHOW|VALUES)\b/i;
/** Anything that writes or takes a lock or has a session effect, even inside a SELECT. */
const NOT_A_PLAIN_READ = /\b(INSERT|UPDATE|DELETE|MERGE|TRUNCATE|nextval|setval|pg_advisory\w*|pg_try_advisory\w*|pg_notify|NOTIFY|LISTEN|set_config|pg_cancel_backend|pg_terminate_backend|SHARE|LOCK)\b/i;

/**
 * A statement that only reads, so running it again on a fresh connection after its connection died (outside a
 * transaction) has the effect of running it once. Conservative: a doubt (any write or lock word) is a no.
 */
export function readOnlyStatement(sql: string): boolean {
  return READ_START.test(sql) && !NOT_A_PLAIN_READ.test(sql);
}

/** Seconds a client is asked to wait before sending a request again after a lost connection: a restart's length. */
export const LOST_CONNECTION_RETRY_AFTER_S = 1;
