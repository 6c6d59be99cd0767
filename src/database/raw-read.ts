import type { Pool, QueryConfig } from 'pg';
import { types } from 'pg';
import type { DataSource } from 'typeorm';
import { readOnceMore } from './replicas/read-retry';

const TIMESTAMPTZ = 1184;
const TIMESTAMP = 1114;
const asText = (v: string) => v;
/** pg type parsers that leave timestamps as the driver's text (`QueryConfig.types`). */
export const TEXT_TIMES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === TIMESTAMPTZ || oid === TIMESTAMP ? asText : types.getTypeParser(oid, format)) as typeof types.getTypeParser,
};

/**
 * A read on the pool under TypeORM with timestamps left as the driver's text (issue 13: no Date per value on hot read
 * paths; `pgTimeToPlus8` renders them). Reads only, outside transactions (read again if the connection dies: issue 38). Where the data source has no pg pool, the
 * rows come through TypeORM with Dates; callers render both.
 */
export async function readRowsTextTimes<T>(ds: DataSource, text: string, values: unknown[]): Promise<T[]> {
  const pool = poolOf(ds);
  if (!pool) return (await ds.query(text, values)) as T[];
  const config: QueryConfig = { text, values, types: TEXT_TIMES };
  return (await readOnceMore(text, () => pool.query(config))).rows as T[];
}

/** A read straight on the pool under TypeORM (no QueryRunner per query), default type parsing; reads only. */
export async function readRows<T>(ds: DataSource, text: string, values: unknown[]): Promise<T[]> {
  const pool = poolOf(ds);
  if (!pool) return (await ds.query(text, values)) as T[];
  return (await readOnceMore(text, () => pool.query({ text, values }))).rows as T[];
}

function poolOf(ds: DataSource): Pool | null {
  const pool = (ds.driver as unknown as { master?: Pool }).master;
  return pool && typeof pool.query === 'function' ? pool : null;
}
