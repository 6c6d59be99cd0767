import { randomBytes } from 'node:crypto';
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
    drop: () => adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}
