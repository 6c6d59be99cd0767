/**
 * Fuzz mutations (issue 11): a valid request changed in ONE place: a body field (replaced, removed or added), the
 * whole body, a header, a path segment or a query value. Generated with fast-check from a seed, applied to the
 * concrete request at run time (`pick` chooses among the places the request actually has).
 */
import fc from 'fast-check';

/** A number written verbatim into the JSON text (JavaScript cannot hold it): `{ [RAW]: '9223372036854775807' }`. */
export const RAW = '__fuzz_raw_number__';

export type Mutation =
  | { kind: 'none' }
  | { kind: 'body-set'; pick: number; value: unknown }
  | { kind: 'body-delete'; pick: number }
  | { kind: 'body-add'; pick: number; key: string; value: unknown }
  | { kind: 'whole-body'; raw: string; contentType: string }
  | { kind: 'header'; name: string; value: string | null }
  | { kind: 'path'; pick: number; segment: string }
  | { kind: 'query'; pick: number; value: string; duplicate: boolean };

const HOSTILE_STRINGS = [
  '', ' ', '\u0000', 'a\u0000b', '\ud800', 'x\udfff', '\ud83d\ude00', '可乐', 'x'.repeat(301), 'x'.repeat(1001), 'x'.repeat(20_001),
  '0', '-1', '1e400', 'NaN', 'null', 'true', '[]', '{}', '__proto__', 'constructor', '../../etc/passwd', '<script>alert(1)</script>',
  "'; DROP TABLE checkout_sessions; --", '%00', '\\u0000', '2026-13-45T99:99:99Z', '0000-01-01T00:00:00Z', '99999-01-01T00:00:00Z',
  '2026-11-23T10:00:00+08:00', 'acme-supply:COLA', 'acme-machine:A1', 'nope:NOPE', 'loc-1', 'sim-supply', 'BX', 'EA', 'shipping',
];

/** Forged pagination cursors (base64url JSON the service did not issue). */
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
export const FORGED_CURSORS = [
  b64(['taken', '2026-02-31T00:00:00.000000Z', 'O-1']), b64(['updated', '0000-01-01T00:00:00.000000Z', 'x']), b64(['taken', '2026-01-01T00:00:00.000000Z', 'a\u0000']),
  b64(['+275760-09-13T00:00:00.000Z', 'PO-1']), b64(['2026-01-01T00:00:00.000Z', 'P\u0000']), b64({ o: 1e300, f: 'x' }), b64({ o: -1 }), b64(null), b64([]),
];

const RAW_NUMBERS = ['9223372036854775807', '-9223372036854775808', '1e400', '-1e400', '1e-400', '123456789012345678901234567890', '0.1e1', '-0'];

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 1, arbitrary: fc.constantFrom(...FORGED_CURSORS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
);

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 2, arbitrary: fc.constantFrom(0, -1, 1, 1.5, -0.5, 2 ** 31, 2 ** 53, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 1e21, 1e300, 100_001, 10_000_001) },
  { weight: 2, arbitrary: fc.integer() },
  { weight: 2, arbitrary: fc.constantFrom(...RAW_NUMBERS).map((n) => ({ [RAW]: n })) },
  { weight: 2, arbitrary: fc.constantFrom(null, true, false, [], {}, [null], [[]], [{}], { a: 1 }, Array.from({ length: 250 }, () => ({ id: 'x' }))) },
  { weight: 1, arbitrary: fc.constant(nested(40)) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

function nested(depth: number): unknown {
  let v: unknown = 'deep';
  for (let i = 0; i < depth; i++) v = { d: v };
  return v;
}

const WHOLE_BODIES: { raw: string; contentType: string }[] = [
  { raw: '[]', contentType: 'application/json' },
  { raw: '"x"', contentType: 'application/json' },
  { raw: '3', contentType: 'application/json' },
  { raw: 'null', contentType: 'application/json' },
  { raw: 'true', contentType: 'application/json' },
  { raw: '{', contentType: 'application/json' },
  { raw: '', contentType: 'application/json' },
  { raw: '{"a":1}', contentType: 'text/plain' },
  { raw: '{"a":"\\u0000"}', contentType: 'application/json' },
  { raw: '{"a":"\\ud800"}', contentType: 'application/json' },
  { raw: '{"a":1e400}', contentType: 'application/json' },
  { raw: `${'['.repeat(5000)}${']'.repeat(5000)}`, contentType: 'application/json' },
  { raw: `{"line_items":${'['.repeat(5000)}${']'.repeat(5000)}}`, contentType: 'application/json' },
  { raw: `{"a":${'{"b":'.repeat(3000)}1${'}'.repeat(3000)}}`, contentType: 'application/json' },
  { raw: '{"__proto__":{"x":1}}', contentType: 'application/json' },
  { raw: '{"a":1}', contentType: 'application/json; charset=utf-16' },
  { raw: '\u00ff\u00fe{', contentType: 'application/json' },
];

// Header values a client can send (visible Latin-1): Node refuses control characters and code points above 255.
const headerText = fc.oneof(
  fc.constantFrom('', ' ', 'x'.repeat(300), 'x'.repeat(5000), 'é', 'a,b', 'profile="https://x.test/p"', 'profile=', '=;', 'Bearer', 'Bearer x', 'k-1', '%00'),
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 40 }),
);

const SEGMENTS = ['%00', '%ff', '%E0%A4%A', '%', '%2', '..', '.', '%2e%2e', '%2F', '%5C', 'x'.repeat(400), '%F0%9F%98%80', '%ED%A0%80', '0', '-1',
  '9223372036854775807', 'null', 'undefined', '__proto__', 'constructor', '%20', '%25', 'acme-supply%3ACOLA', 'nope%3Anope', 'loc-1', '%C0%AE'];

/** Percent-encodes the UTF-8 bytes of `s` except unreserved characters (lone surrogates become U+FFFD). */
export function pctEncode(s: string): string {
  return [...Buffer.from(s, 'utf8')].map((b) => (/[A-Za-z0-9\-._~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
}

const segment = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...SEGMENTS) }, { weight: 2, arbitrary: hostileString.map(pctEncode) });
const queryValue = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...SEGMENTS, '1e400', '1.5', '-5', '501', '100000', 'NaN', '', '2026-11-23T10%3A00%3A00%2B08%3A00', '0000-01-01T00%3A00%3A00Z') },
  { weight: 2, arbitrary: hostileString.map(pctEncode) },
  { weight: 1, arbitrary: fc.constantFrom(...FORGED_CURSORS) },
);
const headerName = fc.constantFrom('authorization', 'idempotency-key', 'ucp-agent', 'content-type', 'accept', 'cookie', 'x-forwarded-for', 'accept-encoding', 'content-encoding');

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('body-set' as const), pick: fc.nat(), value: hostileValue }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('body-delete' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('body-add' as const), pick: fc.nat(), key: fc.oneof(hostileString, fc.constantFrom('confirm', 'id', 'status', '__proto__')), value: hostileValue }) },
  { weight: 2, arbitrary: fc.constantFrom(...WHOLE_BODIES).map((b) => ({ kind: 'whole-body' as const, ...b })) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('header' as const), name: headerName, value: fc.option(headerText, { nil: null }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('path' as const), pick: fc.nat(), segment }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('query' as const), pick: fc.nat(), value: queryValue, duplicate: fc.boolean() }) },
);

/** Every place in a JSON value: `[path, parent, key]` (the root has no parent). */
export function placesOf(v: unknown, path: (string | number)[] = []): { path: (string | number)[] }[] {
  const out = [{ path }];
  if (Array.isArray(v)) v.forEach((x, i) => out.push(...placesOf(x, [...path, i])));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) out.push(...placesOf(x, [...path, k]));
  return out;
}

/** A copy of `root` with the value at `path` replaced (undefined = removed); the root itself when path is empty. */
export function setAt(root: unknown, path: (string | number)[], value: unknown, remove = false): unknown {
  if (path.length === 0) return remove ? undefined : value;
  const copy: unknown = Array.isArray(root) ? [...root] : { ...(root as object) };
  const [head, ...rest] = path;
  const c = copy as Record<string | number, unknown>;
  if (rest.length === 0) {
    if (remove) {
      if (Array.isArray(copy)) copy.splice(head as number, 1);
      else delete c[head];
    } else c[head] = value;
  } else c[head] = setAt(c[head], rest, value, remove);
  return copy;
}

/** JSON text of a body, with raw-number markers written verbatim. */
export function toJsonText(body: unknown): string {
  return JSON.stringify(body).replace(new RegExp(`\\{"${RAW}":"([^"]*)"\\}`, 'g'), '$1');
}

export function describeMutation(m: Mutation): string {
  const short = (v: unknown) => {
    const s = JSON.stringify(v) ?? String(v);
    return s.length > 60 ? `${s.slice(0, 60)}…(${s.length})` : s;
  };
  switch (m.kind) {
    case 'none': return 'unmutated';
    case 'body-set': return `body[${m.pick}] = ${short(m.value)}`;
    case 'body-delete': return `body[${m.pick}] removed`;
    case 'body-add': return `body[${m.pick}] + ${short(m.key)}: ${short(m.value)}`;
    case 'whole-body': return `body = ${short(m.raw)} (${m.contentType})`;
    case 'header': return `header ${m.name} = ${short(m.value)}`;
    case 'path': return `path[${m.pick}] = ${short(m.segment)}`;
    case 'query': return `query[${m.pick}] = ${short(m.value)}${m.duplicate ? ' (twice)' : ''}`;
  }
}
