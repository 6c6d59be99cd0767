import fc from 'fast-check';
import { checkBudget, GuardRules, hardNoGo, onProbation, overPriceCap, parseGuardRules, parseGuardRulesText, splitByPriceCap } from '../../../src/guards/guard.rules';

const RULES: GuardRules = {
  killSwitch: false,
  budget: { perOrderFen: 100000, dailyFen: 300000, monthlyFen: 3000000 },
  priceCapPerItem: { maxMoveFen: 200, maxMovePercent: 25 },
  probationVendors: ['acme'],
  hardNoGo: { vendors: ['bad'], skus: ['good-supply:X1'] },
};

describe('guard rules: parsing', () => {
  it('accepts the section 4 document', () => {
    expect(parseGuardRules(RULES)).toEqual({ ok: true, rules: RULES });
  });
  it.each([
    ['not an object', []],
    ['a float budget', { ...RULES, budget: { ...RULES.budget, dailyFen: 1.5 } }],
    ['a string budget', { ...RULES, budget: { ...RULES.budget, perOrderFen: '100' } }],
    ['no price cap', { ...RULES, priceCapPerItem: undefined }],
    ['a negative percent', { ...RULES, priceCapPerItem: { maxMoveFen: 1, maxMovePercent: -1 } }],
    ['bad probation', { ...RULES, probationVendors: 'acme' }],
    ['bad hard no-go', { ...RULES, hardNoGo: { vendors: [1] } }],
    ['a string kill switch', { ...RULES, killSwitch: 'on' }],
  ])('refuses %s', (_n, raw) => {
    expect(parseGuardRules(raw).ok).toBe(false);
  });
  it('refuses malformed JSON and the unreadable-file marker', () => {
    expect(parseGuardRulesText('{"budget":').ok).toBe(false);
    expect(parseGuardRulesText('\u0000unreadable: ENOENT')).toEqual({ ok: false, problem: 'the guard rules file could not be read' });
  });
});

describe('guard rules: budget', () => {
  const b = RULES.budget;
  it('reaching a limit exactly passes; one fen more does not; limits are reported in order', () => {
    expect(checkBudget(b, 100000, { dayFen: 0, monthFen: 0 })).toEqual({ ok: true });
    expect(checkBudget(b, 100001, { dayFen: 0, monthFen: 0 })).toEqual({ ok: false, limit: 'per_order', limitFen: 100000, spentFen: 0 });
    expect(checkBudget(b, 1, { dayFen: 300000, monthFen: 300000 })).toEqual({ ok: false, limit: 'daily', limitFen: 300000, spentFen: 300000 });
    expect(checkBudget(b, 1, { dayFen: 0, monthFen: 3000000 })).toEqual({ ok: false, limit: 'monthly', limitFen: 3000000, spentFen: 3000000 });
  });
  it('refuses a non-integer amount', () => {
    expect(() => checkBudget(b, 1.5, { dayFen: 0, monthFen: 0 })).toThrow(RangeError);
  });

  it('property: ok exactly when the amount, today plus it and the month plus it are all within their limits', () => {
    const fen = fc.integer({ min: 0, max: 10_000_000 });
    fc.assert(
      fc.property(fen, fen, fen, fen, fen, fen, (perOrderFen, dailyFen, monthlyFen, amount, day, monthExtra) => {
        const spent = { dayFen: day, monthFen: day + monthExtra }; // the month includes today
        const out = checkBudget({ perOrderFen, dailyFen, monthlyFen }, amount, spent);
        const within = amount <= perOrderFen && day + amount <= dailyFen && spent.monthFen + amount <= monthlyFen;
        expect(out.ok).toBe(within);
        if (!out.ok) {
          const limits = { per_order: perOrderFen, daily: dailyFen, monthly: monthlyFen };
          expect(out.limitFen).toBe(limits[out.limit]);
        }
      }),
    );
  });

  it('property: spending more never turns a refusal into a pass (monotone)', () => {
    const fen = fc.integer({ min: 0, max: 1_000_000 });
    fc.assert(
      fc.property(fen, fen, fen, fen, fen, (amount, day, month, moreDay, moreMonth) => {
        const before = checkBudget(b, amount, { dayFen: day, monthFen: day + month });
        const after = checkBudget(b, amount, { dayFen: day + moreDay, monthFen: day + month + moreDay + moreMonth });
        if (!before.ok) expect(after.ok).toBe(false);
      }),
    );
  });

  it('property: orders that each pass, added one by one to the spend, never total more than the daily limit', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 200_000 }), { maxLength: 40 }), (orders) => {
        let day = 0;
        for (const o of orders) if (checkBudget(b, o, { dayFen: day, monthFen: day }).ok) day += o;
        expect(day).toBeLessThanOrEqual(b.dailyFen);
      }),
    );
  });
});

describe('guard rules: price cap', () => {
  const cap = RULES.priceCapPerItem;
  it('examples: fen and percent limits, both directions, zero current price', () => {
    expect(overPriceCap(cap, { currentFen: 1000, newFen: 1200 })).toBe(false); // 200 fen, 20%
    expect(overPriceCap(cap, { currentFen: 1000, newFen: 1201 })).toBe(true); // 201 fen
    expect(overPriceCap(cap, { currentFen: 400, newFen: 500 })).toBe(false); // exactly 25%
    expect(overPriceCap(cap, { currentFen: 400, newFen: 501 })).toBe(true); // 25.25%
    expect(overPriceCap(cap, { currentFen: 400, newFen: 299 })).toBe(true); // down 25.25%
    expect(overPriceCap(cap, { currentFen: 0, newFen: 1 })).toBe(true);
    expect(overPriceCap(cap, { currentFen: 0, newFen: 0 })).toBe(false);
  });

  it('property: over the cap exactly when the move passes the fen limit or the percent of the current price', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000 }),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        (maxMoveFen, maxMovePercent, currentFen, newFen) => {
          const move = Math.abs(newFen - currentFen);
          const expected = move > maxMoveFen || move / Math.max(currentFen, Number.MIN_VALUE) > maxMovePercent / 100 || (currentFen === 0 && move > 0);
          expect(overPriceCap({ maxMoveFen, maxMovePercent }, { currentFen, newFen })).toBe(expected);
        },
      ),
    );
  });

  it('property: symmetric in direction, no move is never over, and split partitions the moves', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ currentFen: fc.integer({ min: 0, max: 50_000 }), delta: fc.integer({ min: -50_000, max: 50_000 }) })), (rows) => {
        const moves = rows.map((r) => ({ currentFen: r.currentFen, newFen: Math.max(0, r.currentFen + r.delta) }));
        for (const m of moves) {
          expect(overPriceCap(cap, { currentFen: m.currentFen, newFen: m.currentFen })).toBe(false);
          const back = { currentFen: m.currentFen, newFen: m.currentFen - (m.newFen - m.currentFen) };
          if (back.newFen >= 0) expect(overPriceCap(cap, back)).toBe(overPriceCap(cap, m));
        }
        const { within, over } = splitByPriceCap(cap, moves);
        expect(within.length + over.length).toBe(moves.length);
        expect(over.every((m) => overPriceCap(cap, m))).toBe(true);
        expect(within.some((m) => overPriceCap(cap, m))).toBe(false);
      }),
    );
  });
});

describe('guard rules: probation and hard no-go', () => {
  it('probation by vendor; hard no-go by vendor or exact sku id', () => {
    expect(onProbation(RULES, 'acme')).toBe(true);
    expect(onProbation(RULES, 'acme2')).toBe(false);
    expect(hardNoGo(RULES, { vendor: 'bad', skuId: 'bad-supply:1' })).toBe(true);
    expect(hardNoGo(RULES, { vendor: 'good', skuId: 'good-supply:X1' })).toBe(true);
    expect(hardNoGo(RULES, { vendor: 'good', skuId: 'good-supply:X10' })).toBe(false);
  });
});
