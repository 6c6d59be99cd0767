import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from 'pg';

/**
 * The streaming replica of the local PostgreSQL and PgBouncer in front of the primary (issue 38), as
 * scripts/test-replica.sh sets them up (.ci/run runs it before the tests; `ensureReplicaAndPooler` runs it when a test
 * finds them missing, so a developer's `npm test` works too).
 */
export const REPLICA_PORT = Number(process.env.TEST_REPLICA_PORT ?? 5433);
export const PGBOUNCER_PORT = Number(process.env.TEST_PGBOUNCER_PORT ?? 6432);
const SCRIPT = path.join(__dirname, '..', '..', 'scripts', 'test-replica.sh');
const REPLICA_DIR = process.env.REPLICA_DIR ?? '/var/tmp/vending-replica';
const PG_CTL = () => `/usr/lib/postgresql/${execFileSync('bash', ['-c', 'ls /etc/postgresql | sort -V | tail -n 1']).toString().trim()}/bin/pg_ctl`;

/** The same database on another port (the replica's, PgBouncer's). */
export function onPort(url: string, port: number): string {
  const u = new URL(url);
  u.port = String(port);
  return u.toString();
}

async function answers(port: number, sql: string): Promise<unknown> {
  const c = new Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres', connectionTimeoutMillis: 2000 });
  c.on('error', () => undefined); // a server ending the session while it ends: the query's own error says enough
  try {
    await c.connect();
    return (await c.query(sql)).rows[0];
  } catch {
    return null;
  } finally {
    await c.end().catch(() => undefined);
  }
}

export async function ensureReplicaAndPooler(): Promise<void> {
  const replica = (await answers(REPLICA_PORT, 'SELECT pg_is_in_recovery() AS r')) as { r: boolean } | null;
  const bouncer = await answers(PGBOUNCER_PORT, 'SELECT 1 AS one');
  if (replica?.r === true && bouncer) {
    await replicaQuery('SELECT pg_wal_replay_resume()');
    return;
  }
  execFileSync(SCRIPT, ['up'], { stdio: 'inherit' });
}

/** One statement on the replica's `postgres` database (replay control: pg_wal_replay_pause / resume). */
export async function replicaQuery(sql: string): Promise<void> {
  const c = new Client({ host: '127.0.0.1', port: REPLICA_PORT, user: 'postgres', database: 'postgres' });
  c.on('error', () => undefined); // as in `answers`: a failure shows as the statement's error
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

function asPostgres(cmd: string): void {
  execFileSync('su', ['postgres', '-s', '/bin/bash', '-c', cmd], { stdio: 'ignore' });
}

/** Stops the replica (fast shutdown: its sessions are cut, as in a crash of the host). */
export function stopReplica(): void {
  asPostgres(`${PG_CTL()} -D ${REPLICA_DIR} -m fast -w stop`);
}

export function startReplica(): void {
  asPostgres(`${PG_CTL()} -D ${REPLICA_DIR} -l ${REPLICA_DIR}/server.log -w -t 60 start`);
}

/** PgBouncer's online restart (-R): a new process takes over the listening and client sockets. */
export function restartPgBouncer(): void {
  execFileSync(SCRIPT, ['restart-pgbouncer'], { stdio: 'ignore' });
}

const BOUNCER_DIR = process.env.BOUNCER_DIR ?? '/var/tmp/vending-pgbouncer';

/**
 * A hard restart of PgBouncer: its process is killed (`SIGTERM`: immediate shutdown, every client and server
 * connection closed; `SIGKILL`: no shutdown at all), then a new one is started with the same config after `downMs`.
 * Statements in flight through it are cut. Answers once the new process accepts connections.
 */
export async function hardRestartPgBouncer(signal: 'SIGTERM' | 'SIGKILL', downMs = 300): Promise<void> {
  const pid = Number(fs.readFileSync(`${BOUNCER_DIR}/pgbouncer.pid`, 'utf8').trim());
  process.kill(pid, signal);
  const since = Date.now();
  while (running(pid) && Date.now() - since < 5000) await new Promise((r) => setTimeout(r, 20));
  // A killed process leaves its pidfile, and an unreaped one still answers kill(pid, 0): the new one would refuse.
  fs.rmSync(`${BOUNCER_DIR}/pgbouncer.pid`, { force: true });
  await new Promise((r) => setTimeout(r, downMs));
  execFileSync(SCRIPT, ['start-pgbouncer'], { stdio: 'ignore' });
}

/** Alive and not a zombie (a daemon's parent may not reap it at once). */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

const TEST_LOCK = '/var/tmp/vending-replica-tests.lock';

/**
 * One test file at a time drives the replica and PgBouncer (jest runs two files at once): a fault one file injects
 * (replay paused, replica stopped) must not land in the other's checks, nor the set-up script restart what a fault
 * stopped. Answers the release. A lock left by a dead process is taken over.
 */
export async function lockReplicaForFile(): Promise<() => void> {
  for (;;) {
    try {
      fs.mkdirSync(TEST_LOCK);
      fs.writeFileSync(`${TEST_LOCK}/pid`, String(process.pid));
      return () => fs.rmSync(TEST_LOCK, { recursive: true, force: true });
    } catch {
      let holder = 0;
      try {
        holder = Number(fs.readFileSync(`${TEST_LOCK}/pid`, 'utf8'));
      } catch {
        // Being written: wait.
      }
      if (holder && holder !== process.pid && !alive(holder)) {
        fs.rmSync(TEST_LOCK, { recursive: true, force: true });
        continue;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
