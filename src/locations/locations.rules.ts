/**
 * Locations (spec "Location (machine)", "Locations" endpoints, the contract (docs/contract/)). Pure: no Nest or TypeORM.
 */
import { Errors } from '../common/errors/errors';

export const PROFILE_FIELDS = ['city', 'address', 'placement', 'venueType', 'floor', 'spot'] as const;
export type ProfileField = (typeof PROFILE_FIELDS)[number];
export type Profile = Partial<Record<ProfileField, string | number | null>>;

export const SEARCH_DEFAULT_LIMIT = 50;
export const SEARCH_MAX_LIMIT = 100;

/**
 * The profile holds the six fields only; each is a string (at most 200 characters), a number or null.
 * Anything else is 400 `invalid` with the path of the offending field.
 */
export function validateProfile(profile: unknown, path = '$.profile'): Profile {
  if (profile === null || typeof profile !== 'object' || Array.isArray(profile)) {
    throw Errors.invalid(path, `${path} must be an object with the fields ${PROFILE_FIELDS.join(', ')}`);
  }
  const out: Profile = {};
  for (const [k, v] of Object.entries(profile as Record<string, unknown>)) {
    if (!(PROFILE_FIELDS as readonly string[]).includes(k)) {
      throw Errors.invalid(`${path}.${k}`, `${path}.${k} is not a profile field (${PROFILE_FIELDS.join(', ')})`);
    }
    const ok = v === null || (typeof v === 'string' && v.length <= 200) || (typeof v === 'number' && Number.isFinite(v));
    if (!ok) throw Errors.invalid(`${path}.${k}`, `${path}.${k} must be a string of at most 200 characters, a number or null`);
    out[k as ProfileField] = v as string | number | null;
  }
  return out;
}

/** Purge counts of a roster removal: profile fields set, context entries, telemetry rows (synced slots). */
export function purgeCounts(profile: Record<string, unknown>, context: Record<string, unknown>, telemetryRows: number) {
  const count = (o: Record<string, unknown>) =>
    Object.values(o ?? {}).reduce<number>((n, v) => n + (Array.isArray(v) ? v.length : v === null || v === undefined ? 0 : 1), 0);
  return { profile: count(profile), context: count(context), telemetry: telemetryRows };
}

/** `%` and `_` in a search text are literal. */
export function likePattern(query: string): string {
  return `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function encodeIdCursor(id: string): string {
  return Buffer.from(id, 'utf8').toString('base64url');
}

export function decodeIdCursor(cursor: string): string | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return null;
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  return /^[A-Za-z0-9._-]{1,64}$/.test(id) ? id : null;
}

export interface LocationRecord {
  id: string;
  namespace: string;
  name: string;
  profile: Record<string, unknown>;
  context: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
}
