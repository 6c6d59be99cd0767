/**
 * Pure checks of request values at the edge, before anything reaches PostgreSQL or arithmetic (no Nest import).
 * PostgreSQL refuses NUL in text and lone UTF-16 surrogates in jsonb; numbers past the safe range lose precision
 * (or are Infinity) before any rule sees them. Each problem names the JSONPath of the value.
 */
import { MAX_BODY_DEPTH, MAX_BODY_KEY_CHARS, MAX_BODY_STRING_CHARS } from './limits';

export interface EdgeProblem {
  path: string;
  why: string;
}

// Cheap first test (one character class); only a hit is looked at closely.
const SUSPECT = /[\u0000\uD800-\uDFFF]/;
// A NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one.
const BAD_CHARS = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why `s` cannot be accepted as text, or null. */
export function stringProblem(s: string, maxChars: number): string | null {
  if (s.length > maxChars) return `longer than ${maxChars} characters`;
  if (!SUSPECT.test(s) || !BAD_CHARS.test(s)) return null;
  return s.includes('\u0000') ? 'contains a NUL character' : 'contains a lone UTF-16 surrogate (not valid Unicode text)';
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return IDENT.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}

type Found = { keys: (string | number)[]; why: string };

/**
 * The first problem of a parsed JSON value: a bad string or key, a number that is not finite or past
 * Number.MAX_SAFE_INTEGER in magnitude, or nesting deeper than MAX_BODY_DEPTH. Null when the value is acceptable.
 * The JSONPath is built only for a problem (this runs on every body).
 */
export function jsonValueProblem(value: unknown, path = '$'): EdgeProblem | null {
  const f = walk(value, 0);
  if (!f) return null;
  return { path: f.keys.reduceRight<string>((p, k) => childPath(p, k), path), why: f.why };
}

function walk(value: unknown, depth: number): Found | null {
  if (typeof value === 'string') {
    const why = stringProblem(value, MAX_BODY_STRING_CHARS);
    return why ? { keys: [], why } : null;
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return { keys: [], why: 'is not a finite number' };
    if (value > Number.MAX_SAFE_INTEGER || value < -Number.MAX_SAFE_INTEGER) return { keys: [], why: `is beyond ±${Number.MAX_SAFE_INTEGER}` };
    return null;
  }
  if (value === null || typeof value !== 'object') return null;
  if (depth >= MAX_BODY_DEPTH) return { keys: [], why: `is nested deeper than ${MAX_BODY_DEPTH} levels` };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const f = walk(value[i], depth + 1);
      if (f) return (f.keys.push(i), f);
    }
    return null;
  }
  const obj = value as Record<string, unknown>;
  for (const k in obj) {
    if (!Object.prototype.hasOwnProperty.call(obj, k)) continue;
    const keyWhy = stringProblem(k, MAX_BODY_KEY_CHARS);
    if (keyWhy) return { keys: [k.replace(/[\u0000\uD800-\uDFFF]/g, '?').slice(0, 40)], why: `has a key that is ${keyWhy}` };
    const f = walk(obj[k], depth + 1);
    if (f) return (f.keys.push(k), f);
  }
  return null;
}

/** A JSON body consumed as a DTO must be an object: an array, string, number, boolean or null is refused. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
