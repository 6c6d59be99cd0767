import {
  aliasTargetProblem,
  aliasWarnings,
  canonicalPair,
  impliedVendorAlias,
  mergeAliases,
  pickSuggestions,
  purchasableFrom,
  storedAliasesOf,
  storedSourceFor,
  SupplyResolution,
  usableToOrder,
} from '../../../src/skus/alias.rules';

const T = new Date('2026-09-10T10:00:00.000+08:00');

describe('alias rules', () => {
  it('rule 1: a stored pair is read from either side (symmetric), in one canonical order', () => {
    expect(canonicalPair('b-supply:1', 'a-machine:1')).toEqual(['a-machine:1', 'b-supply:1']);
    expect(canonicalPair('a-machine:1', 'b-supply:1')).toEqual(['a-machine:1', 'b-supply:1']);
    const pairs = [{ skuA: 'a-machine:1', skuB: 'b-supply:1', source: 'manual', confirmedAt: T }];
    expect(storedAliasesOf('a-machine:1', pairs)).toEqual([{ skuId: 'b-supply:1', source: 'manual', confirmedAt: T }]);
    expect(storedAliasesOf('b-supply:1', pairs)).toEqual([{ skuId: 'a-machine:1', source: 'manual', confirmedAt: T }]);
    expect(storedAliasesOf('c-supply:1', pairs)).toEqual([]);
  });

  it('rule 2: the vendor alias is implied only for a shared id space, never confirmed', () => {
    expect(impliedVendorAlias('acme-machine:X-1', true)).toEqual({ skuId: 'acme-supply:X-1', source: 'vendor', confirmedAt: null });
    expect(impliedVendorAlias('acme-supply:X-1', true)).toEqual({ skuId: 'acme-machine:X-1', source: 'vendor', confirmedAt: null });
    expect(impliedVendorAlias('acme-machine:X-1', false)).toBeNull();
    expect(impliedVendorAlias('garbage', true)).toBeNull();
  });

  it('rule 3: a stored alias wins over the implied one; one entry per sku_id; never itself or its namespace', () => {
    const merged = mergeAliases('acme-machine:1', {
      stored: [{ skuId: 'acme-supply:1', source: 'manual', confirmedAt: T }],
      barcode: [{ skuId: 'beta-supply:9', source: 'barcode', confirmedAt: T }, { skuId: 'acme-machine:1', source: 'barcode', confirmedAt: T }],
      implied: [{ skuId: 'acme-supply:1', source: 'vendor', confirmedAt: null }],
      suggested: [{ skuId: 'beta-supply:9', source: 'suggested', confirmedAt: null }, { skuId: 'acme-machine:2', source: 'suggested', confirmedAt: null }],
    });
    expect(merged).toEqual([
      { skuId: 'acme-supply:1', source: 'manual', confirmedAt: T },
      { skuId: 'beta-supply:9', source: 'barcode', confirmedAt: T },
    ]);
    const implied = mergeAliases('acme-machine:1', { implied: [{ skuId: 'acme-supply:1', source: 'vendor', confirmedAt: null }] });
    expect(implied).toEqual([{ skuId: 'acme-supply:1', source: 'vendor', confirmedAt: null }]);
  });

  it('rule 4: PUT sources are recorded as manual; suggested and unknown sources are refused', () => {
    expect(storedSourceFor('vendor')).toEqual({ ok: true, source: 'manual' });
    expect(storedSourceFor(undefined)).toEqual({ ok: true, source: 'manual' });
    expect(storedSourceFor('manual')).toEqual({ ok: true, source: 'manual' });
    expect(storedSourceFor('barcode')).toEqual({ ok: true, source: 'manual' });
    expect(storedSourceFor('suggested').ok).toBe(false);
    expect(storedSourceFor('guess').ok).toBe(false);
    expect(aliasTargetProblem('a-machine:1', 'a-machine:2')).toMatch(/same namespace/);
    expect(aliasTargetProblem('a-machine:1', 'a-machine:1')).toMatch(/itself/);
    expect(aliasTargetProblem('a-machine:1', 'nope')).toMatch(/not a sku_id/);
    expect(aliasTargetProblem('a-machine:1', 'a-supply:1')).toBeNull();
  });

  const res: Record<string, SupplyResolution> = {
    's-supply:carried': { state: 'carried', priced: true },
    's-supply:free': { state: 'carried', priced: false },
    's-supply:gone': { state: 'dropped' },
    'u-supply:x': { state: 'unreachable', reason: 'timeout after 10000 ms' },
  };
  const resolve = (id: string) => res[id];

  it('rule 5: purchasable_from lists only carried, priced supply skus reached by an orderable alias', () => {
    const aliases = [
      { skuId: 's-supply:carried', source: 'barcode' as const, confirmedAt: T },
      { skuId: 's-supply:free', source: 'manual' as const, confirmedAt: T },
      { skuId: 's-supply:gone', source: 'manual' as const, confirmedAt: T },
      { skuId: 'u-supply:x', source: 'vendor' as const, confirmedAt: null },
      { skuId: 'z-machine:1', source: 'manual' as const, confirmedAt: T },
    ];
    expect(purchasableFrom('m-machine:1', aliases, resolve)).toEqual([{ sku_id: 's-supply:carried', via: 'barcode' }]);
    expect(purchasableFrom('s-supply:carried', [], resolve)).toEqual([{ sku_id: 's-supply:carried', via: 'self' }]);
    expect(purchasableFrom('m-machine:1', [{ skuId: 's-supply:carried', source: 'suggested', confirmedAt: null }], resolve)).toEqual([]);
    expect(usableToOrder('suggested')).toBe(false);
    expect(usableToOrder('vendor')).toBe(true);
  });

  it('rules 6 and 7: dropped and unreachable mappings stay, each with an unresolved_sku warning saying why', () => {
    const aliases = [
      { skuId: 's-supply:carried', source: 'manual' as const, confirmedAt: T },
      { skuId: 's-supply:gone', source: 'manual' as const, confirmedAt: T },
      { skuId: 'u-supply:x', source: 'vendor' as const, confirmedAt: null },
    ];
    const w = aliasWarnings(aliases, resolve, '$.aliases');
    expect(w.map((m) => [m.code, m.severity, m.path])).toEqual([
      ['unresolved_sku', 'warning', '$.aliases[1]'],
      ['unresolved_sku', 'warning', '$.aliases[2]'],
    ]);
    expect(w[1].content).toContain('timeout after 10000 ms');
  });

  it('suggestions: above the threshold, best first, at most three, unconfirmed', () => {
    const s = pickSuggestions([
      { skuId: 'a-supply:1', score: 0.4 },
      { skuId: 'a-supply:2', score: 0.9 },
      { skuId: 'a-supply:3', score: 0.6 },
      { skuId: 'a-supply:4', score: 0.7 },
      { skuId: 'a-supply:5', score: 0.55 },
    ]);
    expect(s.map((x) => x.skuId)).toEqual(['a-supply:2', 'a-supply:4', 'a-supply:3']);
    expect(s.every((x) => x.source === 'suggested' && x.confirmedAt === null)).toBe(true);
  });
});
