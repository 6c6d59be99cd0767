import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from 'pg';

/** The real PostgreSQL server of the test machines (trust auth). Override with TEST_PG_URL. */
export const ADMIN_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export function urlFor(database: string): string {
  const u = new URL(ADMIN_URL);
  u.pathname = `/${database}`;
  return u.toString();
}

export async function adminQuery(sql: string): Promise<void> {
  const c = new Client({ connectionString: ADMIN_URL });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

/** A fresh database for one test file, copied from the migrated template (fast: CREATE DATABASE ... TEMPLATE). */
export async function createTestDatabase(): Promise<{ url: string; name: string; drop: () => Promise<void> }> {
  const template = process.env.TEST_PG_TEMPLATE;
  if (!template) throw new Error('TEST_PG_TEMPLATE is not set: run e2e tests through jest (global setup creates it)');
  const name = `${template.replace(/_tpl$/, '')}_${randomBytes(4).toString('hex')}`;
  await adminQuery(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  return {
    url: urlFor(name),
    name,
    drop: () => release(name),
  };
}

/**
 * A database of this run is no longer needed. DROP DATABASE takes the server a while (0.3-1.5 s); the test does not
 * wait for it: the name goes to the run's drop queue, which jest's main process works through (startDropper, from
 * global-setup.ts), and global-teardown.ts drops whatever is left.
 */
async function release(name: string): Promise<void> {
  const queue = process.env.TEST_PG_DROP_QUEUE;
  if (!queue || !fs.existsSync(queue)) return adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  fs.writeFileSync(path.join(queue, name), '');
}

/** Drops the databases named in `queue` (files written by `release`) one at a time, until `stop()`. */
export function startDropper(queue: string, prefix: string): { stop(): Promise<void> } {
  let current: Promise<void> = Promise.resolve();
  let stopped = false;
  const work = async () => {
    for (const name of fs.readdirSync(queue)) {
      if (stopped) return;
      if (!name.startsWith(prefix)) continue;
      await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => undefined); // teardown sweeps
      fs.rmSync(path.join(queue, name), { force: true });
    }
  };
  const timer = setInterval(() => {
    current = current.then(work).catch(() => undefined);
  }, 300);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await current;
    },
  };
}
