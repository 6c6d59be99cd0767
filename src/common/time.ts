import { MAX_DATE_MS, MIN_DATE_MS } from './limits';

/** Public timestamps are RFC 3339 with the +08:00 offset (spec conventions, decisions.md section 3). */
const OFFSET_MS = 8 * 3600 * 1000;

export function toPlus8(value: Date | number | string): string {
  const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(ms)) throw new Error(`not a time: ${String(value)}`);
  const shifted = new Date(ms + OFFSET_MS).toISOString(); // e.g. 2026-11-22T10:00:00.000Z in +08:00 wall time
  return shifted.replace('Z', '+08:00');
}

export function toPlus8OrNull(value: Date | number | string | null | undefined): string | null {
  return value === null || value === undefined ? null : toPlus8(value);
}

/** RFC 3339 date-time with an explicit offset or Z (requests accept any offset). */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i;

export function parseRfc3339(value: string): Date | null {
  if (!RFC3339.test(value)) return null;
  const ms = Date.parse(value);
  // A sane range (limits.ts): PostgreSQL has no year 0 and the service has no use for far-off dates.
  return Number.isFinite(ms) && ms >= MIN_DATE_MS && ms <= MAX_DATE_MS ? new Date(ms) : null;
}

/** Start of the +08:00 calendar day / month containing `at`, as a UTC Date. */
export function startOfDayPlus8(at: Date): Date {
  const wall = new Date(at.getTime() + OFFSET_MS);
  return new Date(Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate()) - OFFSET_MS);
}

export function startOfMonthPlus8(at: Date): Date {
  const wall = new Date(at.getTime() + OFFSET_MS);
  return new Date(Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), 1) - OFFSET_MS);
}
