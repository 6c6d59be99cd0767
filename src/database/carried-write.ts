/**
 * A data-modifying statement that another write carries as CTEs of its own statement, so that both cost one round
 * trip (issue 21: an idempotent create writes its key with the session's insert). `ctes(bind)` renders the
 * `name AS (...)` definitions, binding each value through `bind` (which answers its `$n`); `written` names the CTE
 * whose rows say the carried write happened.
 */
export interface CarriedWrite {
  ctes(bind: (value: unknown) => string): string;
  written: string;
}

/**
 * One statement for a write (its SQL with `$1..$n` and a RETURNING clause, e.g. from TypeORM's query builder) and
 * the write it carries: the counts of rows each wrote. PostgreSQL runs every data-modifying CTE of a statement, once.
 */
export function carryingStatement(main: { sql: string; params: unknown[] }, carried: CarriedWrite): { sql: string; params: unknown[] } {
  const params = [...main.params];
  const ctes = carried.ctes((value) => `$${params.push(value)}`);
  return {
    sql: `WITH ${ctes}, main_written AS (${main.sql})
          SELECT (SELECT count(*) FROM main_written)::int AS main, (SELECT count(*) FROM ${carried.written})::int AS carried`,
    params,
  };
}
