import { MAX_DATE_MS, MIN_DATE_MS } from './edge/limits';

/** Public timestamps are RFC 3339 with the +08:00 offset (spec conventions, the contract (docs/contract/)). */
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
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-](\d{2}):(\d{2}))$/i;

export function parseRfc3339(value: string): Date | null {
  const m = RFC3339.exec(value);
  if (!m) return null;
  // Every field in its range (JavaScript would roll 2026-02-31 over to March; PostgreSQL refuses it).
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number);
  const probe = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  if (probe.getUTCMonth() !== mo - 1 || probe.getUTCDate() !== d || probe.getUTCHours() !== h || probe.getUTCMinutes() !== mi) return null;
  if (probe.getUTCSeconds() !== s || (m[9] !== undefined && (Number(m[9]) > 23 || Number(m[10]) > 59))) return null;
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

/**
 * A PostgreSQL timestamptz as the driver's text ("2026-11-22 02:00:00.123456+00") rendered like `toPlus8`, without
 * a Date per value (issue 13): the +08:00 date and hour are computed once per distinct source hour and cached; the
 * fraction is truncated to milliseconds as the driver's Date parsing did. Dates and unusual text take the slow path.
 */
const hourAtPlus8 = new Map<string, string>();

export function pgTimeToPlus8(value: string | Date): string {
  if (typeof value !== 'string') return toPlus8(value);
  const v = value;
  if (v.length < 22 || v.charCodeAt(10) !== 32 || v.charCodeAt(13) !== 58 || v.charCodeAt(16) !== 58) return slowPgTime(v);
  let off = 19;
  if (v.charCodeAt(19) === 46) {
    off = 20;
    while (off < v.length && v.charCodeAt(off) >= 48 && v.charCodeAt(off) <= 57) off++;
  }
  const zone = v.slice(off);
  // Whole-hour zones only on the fast path: a zone with minutes shifts the minutes too.
  if (!(zone.length === 3 || zone === `${zone.slice(0, 3)}:00`) || (zone[0] !== '+' && zone[0] !== '-')) return slowPgTime(v);
  const key = v.slice(0, 13) + zone;
  let prefix = hourAtPlus8.get(key);
  if (prefix === undefined) {
    const ms = Date.parse(`${v.slice(0, 10)}T${v.slice(11, 13)}:00:00${zone.slice(0, 3)}:00`);
    if (!Number.isFinite(ms)) return slowPgTime(v);
    prefix = new Date(ms + OFFSET_MS).toISOString().slice(0, 13);
    if (hourAtPlus8.size >= 4096) hourAtPlus8.clear();
    hourAtPlus8.set(key, prefix);
  }
  const ms3 = off > 20 ? (off >= 23 ? v.slice(20, 23) : (v.slice(20, off) + '00').slice(0, 3)) : '000';
  return `${prefix}${v.slice(13, 19)}.${ms3}+08:00`;
}

function slowPgTime(v: string): string {
  const m = /^(\d{4,}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d+)?)([+-]\d{2})(?::?(\d{2}))?(?::?(\d{2}))?$/.exec(v);
  if (!m) return toPlus8(v);
  const sign = m[3][0] === '-' ? -1 : 1;
  const offsetMs = sign * (Number(m[3].slice(1)) * 3600 + Number(m[4] ?? 0) * 60 + Number(m[5] ?? 0)) * 1000;
  const frac = m[2].length > 8 ? m[2].slice(8, 12) : '';
  const ms = Date.parse(`${m[1]}T${m[2].slice(0, 8)}Z`) + Number((frac.slice(1) + '000').slice(0, 3)) - offsetMs;
  return toPlus8(ms);
}
