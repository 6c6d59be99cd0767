import { Client } from 'pg';
import type { TestApp } from './test-app';

/** One statement on a test app's PostgreSQL database (or a database URL), over a connection of its own. */
export async function sql<T = Record<string, unknown>>(target: TestApp | string, text: string, params: unknown[] = []): Promise<T[]> {
  const c = new Client({ connectionString: typeof target === 'string' ? target : target.databaseUrl! });
  await c.connect();
  try {
    return (await c.query(text, params)).rows as T[];
  } finally {
    await c.end();
  }
}
