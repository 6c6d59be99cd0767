import { QueryFailedError } from 'typeorm';
import { toHttp } from '../../../src/common/errors/exception.filter';
import { DomainError } from '../../../src/common/errors/errors';
import { connectionLoss, readOnlyStatement } from '../../../src/database/connection-loss.rules';
import { rerunnableRead } from '../../../src/database/replicas/read-retry';

const pgError = (message: string, code?: string) => Object.assign(new Error(message), code ? { code } : {});
const failed = (query: string, err: Error) => new QueryFailedError(query, [], err);

describe('connection loss (issue 38: a hard restart of the pooler or the primary)', () => {
  it.each([
    ['ECONNRESET', pgError('read ECONNRESET', 'ECONNRESET')],
    ['EPIPE', pgError('write EPIPE', 'EPIPE')],
    ['admin_shutdown', pgError('terminating connection due to administrator command', '57P01')],
    ['crash_shutdown', pgError('terminating connection because of crash of another server process', '57P02')],
    ['cannot_connect_now', pgError('the database system is shutting down', '57P03')],
    ['a connection exception (08006)', pgError('connection failure', '08006')],
    ['node-postgres end of stream', pgError('Connection terminated unexpectedly')],
    ['PgBouncer going away', pgError('server conn crashed?', '08P01')],
  ])('%s is a lost connection', (_, err) => {
    expect(connectionLoss(err)).toBe('cut');
    expect(connectionLoss(failed('SELECT 1', err))).toBe('cut');
  });

  it('a lost COMMIT is ambiguous; ordinary failures are not losses', () => {
    expect(connectionLoss(failed('COMMIT', pgError('Connection terminated unexpectedly')))).toBe('commit_unknown');
    expect(connectionLoss(failed('INSERT INTO x VALUES (1)', pgError('duplicate key value', '23505')))).toBe('none');
    expect(connectionLoss(new DomainError('not_found', 'no such thing'))).toBe('none');
    expect(connectionLoss(pgError('syntax error at or near "x"', '42601'))).toBe('none');
    expect(connectionLoss(undefined)).toBe('none');
  });

  it('only plain reads outside a transaction are read once more', () => {
    expect(readOnlyStatement('SELECT * FROM sales WHERE day = $1')).toBe(true);
    expect(readOnlyStatement('WITH x AS (SELECT 1) SELECT * FROM x')).toBe(true);
    expect(readOnlyStatement('WITH x AS (INSERT INTO t VALUES (1) RETURNING *) SELECT * FROM x')).toBe(false);
    expect(readOnlyStatement('SELECT * FROM sessions WHERE id = $1 FOR UPDATE')).toBe(false);
    expect(readOnlyStatement('SELECT pg_try_advisory_xact_lock(1)')).toBe(false);
    expect(readOnlyStatement('UPDATE t SET updated_at = now()')).toBe(false);
    const lost = pgError('Connection terminated unexpectedly');
    expect(rerunnableRead(lost, 'SELECT 1', false)).toBe(true);
    expect(rerunnableRead(lost, 'SELECT 1', true)).toBe(false);
    expect(rerunnableRead(pgError('division by zero', '22012'), 'SELECT 1/0', false)).toBe(false);
  });

  it('the exception filter answers a lost connection 503 not_ready, never 500', () => {
    const cut = toHttp(failed('SELECT 1', pgError('read ECONNRESET', 'ECONNRESET')));
    expect(cut.status).toBe(503);
    expect(cut.messages[0]).toMatchObject({ code: 'not_ready', severity: 'recoverable' });
    const commit = toHttp(failed('COMMIT', pgError('Connection terminated unexpectedly')));
    expect(commit.status).toBe(503);
    expect(commit.messages[0].content).toMatch(/outcome is unknown/);
    expect(toHttp(new Error('a bug')).status).toBe(500);
  });
});
