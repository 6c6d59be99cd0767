/** Anything that runs SQL the TypeORM way: an EntityManager (`tx.manager`) or the DataSource. */
export interface SqlRunner {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

/**
 * Runs a statement with a RETURNING clause and answers the returned rows. TypeORM's postgres driver answers an
 * UPDATE or a DELETE as `[rows, affected]` but an INSERT (or a SELECT) as the rows: callers never unwrap by hand.
 */
export async function queryReturning<T>(runner: SqlRunner, sql: string, parameters: unknown[] = []): Promise<T[]> {
  const answer = (await runner.query(sql, parameters)) as unknown[];
  const rowsAndCount = answer.length === 2 && Array.isArray(answer[0]) && typeof answer[1] === 'number';
  return (rowsAndCount ? answer[0] : answer) as T[];
}

/**
 * The rows a query builder's `.returning(...).execute()` gave back: its `raw` holds them, for an INSERT and an UPDATE
 * alike (TypeORM's result objects unwrap the driver's `[rows, affected]`). Callers never read `raw` by hand.
 */
export function returnedRows<T>(result: { raw: unknown }): T[] {
  return result.raw as T[];
}
