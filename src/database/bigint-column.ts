import type { ValueTransformer } from 'typeorm';

/**
 * A `bigint` column read as a JavaScript number. The pg driver answers bigint as text (it may exceed 2^53); the
 * amounts kept in these columns (fen, counts) stay far below that, so callers get plain numbers. Null stays null.
 */
export const bigintNumber: ValueTransformer = {
  to: (v: number | null) => v,
  from: (v: string | null) => (v === null ? null : Number(v)),
};
