import { Client } from 'pg';

/**
 * Counts the SQL statements this process sends to PostgreSQL (the real server, or the embedded one through its
 * socket) while a counter is open: tests assert what a request reads at the database, not which methods it calls.
 */
const open = new Set<string[]>();
const original = Client.prototype.query;
Client.prototype.query = function query(this: Client, ...args: unknown[]) {
  if (open.size) {
    const first = args[0];
    const text = typeof first === 'string' ? first : typeof (first as { text?: unknown })?.text === 'string' ? (first as { text: string }).text : '';
    for (const log of open) log.push(text);
  }
  return (original as (...a: unknown[]) => unknown).apply(this, args);
} as typeof Client.prototype.query;

export interface QueryCounter {
  /** SELECTs whose FROM names `table` (with or without FOR UPDATE). */
  selects(table: string, opts?: { forUpdate?: boolean }): number;
  /** Transactions begun. */
  transactions(): number;
  statements(): string[];
  stop(): void;
}

export function countQueries(): QueryCounter {
  const log: string[] = [];
  open.add(log);
  const from = (table: string) => new RegExp(`^\\s*SELECT\\b[\\s\\S]*\\bFROM\\s+"?${table}"?(\\s|$)`, 'i');
  return {
    selects: (table, opts = {}) =>
      log.filter((q) => from(table).test(q) && (opts.forUpdate === undefined || /\bFOR (NO KEY )?UPDATE\b/i.test(q) === opts.forUpdate)).length,
    transactions: () => log.filter((q) => /^\s*(START TRANSACTION|BEGIN)\b/i.test(q)).length,
    statements: () => [...log],
    stop: () => void open.delete(log),
  };
}
