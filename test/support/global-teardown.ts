import * as fs from 'node:fs';
import { Client } from 'pg';
import { runBuildDir } from './compiled-service';
import { ADMIN_URL } from './pg';

/** Drops the template and every per-file database of this run (released or not), and removes the run's embedded dump and compile. */
export default async function globalTeardown(): Promise<void> {
  if (process.env.TEST_EMBEDDED_SEED) fs.rmSync(process.env.TEST_EMBEDDED_SEED, { force: true });
  for (const dir of [runBuildDir(), `${runBuildDir()}.lock`]) fs.rmSync(dir, { recursive: true, force: true });
  await (globalThis as { testPgDropper?: { stop(): Promise<void> } }).testPgDropper?.stop();
  if (process.env.TEST_PG_DROP_QUEUE) fs.rmSync(process.env.TEST_PG_DROP_QUEUE, { recursive: true, force: true });
  const template = process.env.TEST_PG_TEMPLATE;
  if (!template) return;
  const prefix = template.replace(/_tpl$/, '');
  const c = new Client({ connectionString: ADMIN_URL });
  await c.connect();
  try {
    const { rows } = await c.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${prefix}%`]);
    for (const r of rows) await c.query(`DROP DATABASE IF EXISTS "${r.datname}" WITH (FORCE)`);
  } finally {
    await c.end();
  }
}
