/**
 * Seeded randomness and the China-day calendar of the simulated partners' mock data (mock-data.ts): never
 * Math.random, so two runs with one seed show the same world.
 */

export const DEFAULT_SEED = 20260825;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
/** Days are China days (+08:00), the operator's calendar. */
const CN_OFFSET_MS = 8 * HOUR_MS;
/** How many days of sales the platform keeps: five weeks up to today. */
export const LEDGER_DAYS = 35;

// ---- PRNG ----

/** mulberry32: tiny, fast, good enough for mock data, and identical on every platform. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a of the parts: a stable sub-seed per (seed, day, machine) or per idempotency ref. */
export function hashOf(...parts: (string | number)[]): number {
  let h = 0x811c9dc5;
  for (const ch of parts.join('|')) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

export function intBetween(rnd: () => number, min: number, max: number): number {
  return min + Math.floor(rnd() * (max - min + 1));
}

/** An EAN-13 with a valid check digit, in the 690-699 (China) prefix range. */
export function ean13(rnd: () => number): string {
  let digits = `69${intBetween(rnd, 0, 9)}`;
  while (digits.length < 12) digits += String(intBetween(rnd, 0, 9));
  const sum = [...digits].reduce((s, d, i) => s + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
  return digits + String((10 - (sum % 10)) % 10);
}

// ---- calendar ----

export function dayIndexOf(ms: number): number {
  return Math.floor((ms + CN_OFFSET_MS) / DAY_MS);
}

export function dayStartMs(dayIndex: number): number {
  return dayIndex * DAY_MS - CN_OFFSET_MS;
}

/** `20260825` for the China day. */
export function dayLabel(dayIndex: number): string {
  return new Date(dayIndex * DAY_MS).toISOString().slice(0, 10).replace(/-/g, '');
}
