/**
 * Guard rules (docs/contract/) as pure functions: no Nest, no TypeORM, no I/O.
 * Money is integer fen everywhere; the calendar of budgets is +08:00 (the caller passes the window sums).
 */
import { stateMachine } from '../common/state-machine.rules';

export interface GuardRules {
  killSwitch: boolean;
  budget: { perOrderFen: number; dailyFen: number; monthlyFen: number };
  priceCapPerItem: { maxMoveFen: number; maxMovePercent: number };
  probationVendors: string[];
  hardNoGo: { vendors: string[]; skus: string[] };
}

export type ParsedRules = { ok: true; rules: GuardRules } | { ok: false; problem: string };

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isFen = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isStrList = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string' && s.length > 0);

/** Validates the section 4 document. Anything else (malformed JSON, a float amount, a missing part) is a problem. */
export function parseGuardRules(raw: unknown): ParsedRules {
  if (!isObj(raw)) return { ok: false, problem: 'the guard rules are not a JSON object' };
  if (raw.killSwitch !== undefined && typeof raw.killSwitch !== 'boolean') return { ok: false, problem: 'killSwitch must be a boolean' };
  const b = raw.budget;
  if (!isObj(b) || !isFen(b.perOrderFen) || !isFen(b.dailyFen) || !isFen(b.monthlyFen)) {
    return { ok: false, problem: 'budget must hold perOrderFen, dailyFen and monthlyFen as non-negative integer fen' };
  }
  const c = raw.priceCapPerItem;
  if (!isObj(c) || !isFen(c.maxMoveFen) || typeof c.maxMovePercent !== 'number' || !Number.isFinite(c.maxMovePercent) || c.maxMovePercent < 0) {
    return { ok: false, problem: 'priceCapPerItem must hold maxMoveFen (integer fen) and maxMovePercent (a number >= 0)' };
  }
  const probation = raw.probationVendors ?? [];
  if (!isStrList(probation)) return { ok: false, problem: 'probationVendors must be an array of vendor slugs' };
  const h = raw.hardNoGo ?? { vendors: [], skus: [] };
  if (!isObj(h) || !isStrList(h.vendors ?? []) || !isStrList(h.skus ?? [])) {
    return { ok: false, problem: 'hardNoGo must be {vendors: [...], skus: [...]}' };
  }
  return {
    ok: true,
    rules: {
      killSwitch: raw.killSwitch === true,
      budget: { perOrderFen: b.perOrderFen, dailyFen: b.dailyFen, monthlyFen: b.monthlyFen },
      priceCapPerItem: { maxMoveFen: c.maxMoveFen, maxMovePercent: c.maxMovePercent },
      probationVendors: [...probation],
      hardNoGo: { vendors: [...((h.vendors as string[]) ?? [])], skus: [...((h.skus as string[]) ?? [])] },
    },
  };
}

/** The boot text of SERVICE_GUARDS / SERVICE_GUARDS_FILE ("\u0000unreadable" when the file could not be read). */
export function parseGuardRulesText(text: string): ParsedRules {
  if (text.startsWith('\u0000unreadable')) return { ok: false, problem: 'the guard rules file could not be read' };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'the guard rules are not valid JSON' };
  }
  return parseGuardRules(raw);
}

// ---- budget ----

export type SpendState = 'held' | 'spent' | 'uncertain';

/**
 * A spend ledger row per (source, ref): `held` while the order is placed, then `spent` (the partner took it) or
 * `uncertain` (no usable answer; still counted, may be held again by a retry of the same ref). A refusal or a
 * "ref unknown" read deletes the row. Money really spent is never held or made uncertain again.
 */
export const SPEND_MACHINE = stateMachine<SpendState>('spend ledger row', {
  held: ['held', 'spent', 'uncertain'],
  uncertain: ['held', 'spent', 'uncertain'],
  spent: ['spent'],
});

export type BudgetLimit = 'per_order' | 'daily' | 'monthly';
export type BudgetOutcome = { ok: true } | { ok: false; limit: BudgetLimit; limitFen: number; spentFen: number };

/**
 * An order of `amountFen`, alone or added to what was already spent today / this month (+08:00 calendar),
 * must not pass a limit. Reaching a limit exactly is allowed. The first limit passed is reported, in the order
 * per order, daily, monthly.
 */
export function checkBudget(
  budget: GuardRules['budget'],
  amountFen: number,
  spent: { dayFen: number; monthFen: number },
): BudgetOutcome {
  if (!Number.isSafeInteger(amountFen) || amountFen < 0) throw new RangeError(`amount must be integer fen >= 0, got ${amountFen}`);
  if (amountFen > budget.perOrderFen) return { ok: false, limit: 'per_order', limitFen: budget.perOrderFen, spentFen: 0 };
  if (spent.dayFen + amountFen > budget.dailyFen) return { ok: false, limit: 'daily', limitFen: budget.dailyFen, spentFen: spent.dayFen };
  if (spent.monthFen + amountFen > budget.monthlyFen) {
    return { ok: false, limit: 'monthly', limitFen: budget.monthlyFen, spentFen: spent.monthFen };
  }
  return { ok: true };
}

// ---- price cap ----

export interface PriceMove {
  currentFen: number;
  newFen: number;
}

/**
 * A move (|new - current|) above `maxMoveFen` or above `maxMovePercent` of the current price is over the cap.
 * The percent test is exact integer arithmetic: move * 100 > percent * current. From a current price of 0 any
 * move is over the percent cap.
 */
export function overPriceCap(cap: GuardRules['priceCapPerItem'], m: PriceMove): boolean {
  const move = Math.abs(m.newFen - m.currentFen);
  if (move > cap.maxMoveFen) return true;
  return move * 100 > cap.maxMovePercent * m.currentFen;
}

export function splitByPriceCap<T extends PriceMove>(cap: GuardRules['priceCapPerItem'], moves: T[]): { within: T[]; over: T[] } {
  const within: T[] = [];
  const over: T[] = [];
  for (const m of moves) (overPriceCap(cap, m) ? over : within).push(m);
  return { within, over };
}

// ---- probation and hard no-go ----

export function onProbation(rules: GuardRules, vendor: string): boolean {
  return rules.probationVendors.includes(vendor);
}

/** A line is hard no-go when its vendor or its sku id (exact string) is listed. */
export function hardNoGo(rules: GuardRules, line: { vendor: string; skuId: string }): boolean {
  return rules.hardNoGo.vendors.includes(line.vendor) || rules.hardNoGo.skus.includes(line.skuId);
}

/**
 * Whether a kill-switch request (its raw body) needs the approver credential: everything but an explicit
 * `engaged: true` (anyone may stop spending; releasing it, or a body that does not say, needs the owner).
 */
export function killSwitchChangeNeedsApprover(body: unknown): boolean {
  return !(body !== null && typeof body === 'object' && (body as { engaged?: unknown }).engaged === true);
}
