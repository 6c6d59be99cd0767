/** What an approval means to a person: the change, its size, its cost against which budget, and who asked. */
import type { Schemas } from '../api';
import { fenText } from '../format';

type Approval = Schemas['ApprovalView'];
export type Budget = Schemas['BudgetStandingResponse'];
export type Names = { machines: Map<string, string>; products: Map<string, string> };

/** A price move at least this large (up or down, percent of the old price) is flagged for a second look. */
export const LARGE_CHANGE_PERCENT = 25;

export const KIND_WORDS: Record<string, string> = {
  price_change: 'Price change over the cap',
  replenishment_run: 'Replenishment run over budget',
  checkout_budget: 'Purchase order over budget',
  checkout_probation: 'Purchase order from a vendor on probation',
};

export function requesterWords(r: Approval['requested_by']): string {
  if (!r) return 'not recorded (asked before requesters were recorded)';
  switch (r.channel) {
    case 'console':
      return 'an operator in this console';
    case 'mcp':
      return r.agent ? `an agent over MCP (${r.agent})` : 'an agent over MCP';
    case 'api':
      return r.agent ? `a program with the operator token (${r.agent})` : 'a program with the operator token (REST)';
    default:
      return 'the service itself';
  }
}

/** Percent change from old to new, one decimal; null when the old price is 0. */
export function changePercent(oldFen: number, newFen: number): number | null {
  if (oldFen === 0) return null;
  return Math.round(((newFen - oldFen) / oldFen) * 1000) / 10;
}

const num = (s: Record<string, unknown>, k: string): number | null => (typeof s[k] === 'number' ? (s[k] as number) : null);
const str = (s: Record<string, unknown>, k: string): string => (typeof s[k] === 'string' ? (s[k] as string) : '?');

export interface Judged {
  title: string;
  change: string;
  percent: number | null;
  large: boolean;
  cost: { fen: number; against: string; limitFen: number | null } | null;
  approveMeans: string;
}

const BUDGET_WORDS: Record<string, string> = { per_order: 'per-order budget', daily: 'daily budget', monthly: 'monthly budget' };

export function judge(a: Approval, names: Names, budget: Budget | null): Judged {
  const s = a.subject as Record<string, unknown>;
  const product = (id: string) => names.products.get(id) ?? id;
  const machine = (id: string) => names.machines.get(id) ?? id;
  switch (a.kind) {
    case 'price_change': {
      const oldFen = num(s, 'current_fen') ?? 0;
      const newFen = num(s, 'price_fen') ?? 0;
      const pct = changePercent(oldFen, newFen);
      const shownPrice = a.shows.price;
      const where = shownPrice ? `${shownPrice.good} on ${shownPrice.machine}` : `${product(str(s, 'item_id'))} on ${machine(str(s, 'location'))}`;
      return {
        title: KIND_WORDS.price_change ?? 'Price change',
        change: `${where}: ${fenText(oldFen)} → ${fenText(newFen)}`,
        percent: pct,
        large: pct === null || Math.abs(pct) >= LARGE_CHANGE_PERCENT,
        cost: null,
        approveMeans: `the machine sells ${where.split(' on ')[0]} at ${fenText(newFen)} at once`,
      };
    }
    case 'replenishment_run': {
      const fen = num(s, 'total_cost_fen') ?? 0;
      const limit = str(s, 'limit');
      const std = limit === 'daily' ? budget?.daily : limit === 'monthly' ? budget?.monthly : limit === 'per_order' ? budget?.per_order : null;
      return {
        title: KIND_WORDS.replenishment_run ?? 'Replenishment run',
        change: runChange(a) ?? `A run orders goods for about ${fenText(fen)}`,
        percent: null,
        large: false,
        cost: { fen, against: BUDGET_WORDS[limit] ?? `${limit} budget`, limitFen: std?.limit.amount ?? num(s, 'limit_fen') },
        approveMeans: 'the run may be placed; money moves when it is placed',
      };
    }
    default: {
      const fen = num(s, 'total_fen') ?? 0;
      const probation = a.kind === 'checkout_probation';
      return {
        title: KIND_WORDS[a.kind] ?? a.kind.replace(/_/g, ' '),
        change: `A purchase order from ${str(s, 'namespace')} for ${fenText(fen)}${a.shows.destination ? `, ${a.shows.destination}` : ''}`,
        percent: null,
        large: false,
        cost: probation ? null : { fen, against: 'budget', limitFen: null },
        approveMeans: probation ? 'the order may go to this vendor; money moves on complete' : 'the order may pass the budget; money moves on complete',
      };
    }
  }
}

/** Today's and this month's spend against their budgets, in words. */
export function spendWords(b: Budget): string {
  const pct = (spent: number, limit: number) => `${Math.round((spent / Math.max(limit, 1)) * 100)}%`;
  return `Spent today: ${fenText(b.daily.spent.amount)} of the daily budget of ${fenText(b.daily.limit.amount)} (${pct(b.daily.spent.amount, b.daily.limit.amount)}); this month: ${fenText(b.monthly.spent.amount)} of ${fenText(b.monthly.limit.amount)}.`;
}

/** A run's change in words from what the approval shows: units, goods and machines (null when its lines were not recorded). */
function runChange(a: Approval): string | null {
  const lines = a.shows.lines;
  if (lines.length === 0) return null;
  const units = lines.reduce((t, l) => t + l.units, 0);
  const goods = new Set(lines.map((l) => l.item_id)).size;
  const machines = new Set(lines.map((l) => l.machine ?? '')).size;
  const n = (k: number, one: string, many: string) => `${k} ${k === 1 ? one : many}`;
  return `A run orders ${n(units, 'unit', 'units')} of ${n(goods, 'good', 'goods')} for ${n(machines, 'machine', 'machines')}, about ${fenText(a.shows.total_fen ?? 0)}`;
}

/** Everything an approval approves, as the console shows it (issue 37): its lines, destination, supplier and where to look. */
export interface Shown {
  lines: { key: string; text: string }[];
  destination: string | null;
  supplier: string | null;
  /** A console screen showing what it is about (`#/<screen>/<id>`): the run, the purchase order, the machine. */
  open: { screen: string; id: string; label: string } | null;
}

export function shownOf(a: Approval): Shown {
  const s = a.subject as Record<string, unknown>;
  const id = (k: string) => (typeof s[k] === 'string' ? (s[k] as string) : null);
  const runId = id('run_id');
  const sessionId = id('session_id');
  const location = id('location');
  const open =
    a.kind === 'replenishment_run' && runId
      ? { screen: 'replenishment', id: runId, label: 'Open the run' }
      : (a.kind === 'checkout_budget' || a.kind === 'checkout_probation') && sessionId
        ? { screen: 'purchases', id: sessionId, label: 'Open the purchase order' }
        : a.kind === 'price_change' && location
          ? { screen: 'machine', id: location, label: `Open ${a.shows.price?.machine ?? 'the machine'}` }
          : null;
  return {
    lines: a.shows.lines.map((l, i) => ({ key: `${i}-${l.item_id}`, text: l.text })),
    destination: a.shows.destination ?? null,
    supplier: a.shows.supplier ?? null,
    open,
  };
}
