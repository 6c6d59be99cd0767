import fc from 'fast-check';
import { isJsonObject, jsonValueProblem, stringProblem } from '../../../src/common/edge/edge.rules';
import { MAX_BODY_DEPTH, MAX_BODY_STRING_CHARS } from '../../../src/common/edge/limits';
import { parseRfc3339 } from '../../../src/common/time';

describe('edge rules', () => {
  it('refuses NUL and lone surrogates, accepts paired surrogates (emoji) and ordinary text', () => {
    expect(stringProblem('a\u0000b', 100)).toMatch(/NUL/);
    expect(stringProblem('\ud800', 100)).toMatch(/surrogate/);
    expect(stringProblem('x\udc00', 100)).toMatch(/surrogate/);
    expect(stringProblem('\ud83d\ude00 可乐', 100)).toBeNull();
    expect(stringProblem('abc', 2)).toMatch(/longer than 2/);
  });

  it('names the JSONPath of the first bad value', () => {
    expect(jsonValueProblem({ a: [1, { b: 'x\u0000' }] })).toEqual({ path: '$.a[1].b', why: expect.stringMatching(/NUL/) });
    expect(jsonValueProblem({ 'odd key': 'x\ud800' })?.path).toBe('$["odd key"]');
    expect(jsonValueProblem({ q: 9223372036854775807 })?.path).toBe('$.q');
    expect(jsonValueProblem({ q: Infinity })?.why).toMatch(/finite/);
    expect(jsonValueProblem({ s: 'x'.repeat(MAX_BODY_STRING_CHARS + 1) })?.path).toBe('$.s');
    let deep: unknown = 1;
    for (let i = 0; i < MAX_BODY_DEPTH + 1; i++) deep = [deep];
    expect(jsonValueProblem(deep)?.why).toMatch(/nested/);
    expect(jsonValueProblem({ q: Number.MAX_SAFE_INTEGER, f: 1.5, n: null, b: true })).toBeNull();
  });

  it('property: any JSON value made of well-formed text without NUL and safe numbers passes; inserting a NUL anywhere fails', () => {
    const text = fc.string({ unit: 'grapheme', maxLength: 20 }).filter((s) => !s.includes('\u0000'));
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small', maxDepth: 4 }, text, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 }), fc.boolean(), fc.constant(null), tie('arr'), tie('obj')),
      arr: fc.array(tie('value'), { maxLength: 4 }),
      obj: fc.dictionary(text, tie('value'), { maxKeys: 4 }),
    })).value;
    fc.assert(
      fc.property(json, text, (v, s) => {
        expect(jsonValueProblem(v)).toBeNull();
        const bad = `${s}\u0000`;
        expect(jsonValueProblem({ wrap: [v, bad] })?.path).toBe('$.wrap[1]');
      }),
      { seed: 11, numRuns: 300 },
    );
  });

  it('only a JSON object is a body object', () => {
    for (const v of [[], 'x', 3, null, true]) expect(isJsonObject(v)).toBe(false);
    expect(isJsonObject({})).toBe(true);
  });
});

describe('parseRfc3339: a date PostgreSQL can hold, every field in range', () => {
  it.each(['2026-02-31T00:00:00Z', '2026-13-01T00:00:00Z', '2026-01-01T24:00:00Z', '2026-01-01T00:60:00Z', '2026-01-01T00:00:60Z', '2026-01-01T00:00:00+24:00', '0000-01-01T00:00:00Z', '1969-12-31T23:59:59Z', '3000-01-01T00:00:00Z', '99999-01-01T00:00:00Z'])(
    'refuses %s',
    (v) => expect(parseRfc3339(v)).toBeNull(),
  );
  it('accepts real dates with any offset', () => {
    expect(parseRfc3339('2024-02-29T23:59:59.123+08:00')?.toISOString()).toBe('2024-02-29T15:59:59.123Z');
    expect(parseRfc3339('1970-01-01T00:00:00Z')?.getTime()).toBe(0);
    expect(parseRfc3339('2999-12-31T23:59:59.999Z')).not.toBeNull();
  });
});
