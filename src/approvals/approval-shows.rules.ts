/**
 * What an approval shows a person (issue 37), pure: everything it approves, in words, from its stored subject. A run:
 * the machines, goods and units, with a link to the run; a purchase: the supplier, the lines and the destination; a
 * price: the machine, the good, the old and the new price. An approval asked before its subject named these shows
 * what it has (ids stand in for names).
 */
import { yuanText } from '../common/money';
import type { ApprovalKind } from './approval.rules';
import { readSubject } from './approval-subjects';

export interface ShownLine {
  machine?: string;
  good: string;
  itemId: string;
  units: number;
  quantity: number;
  unit: string;
  amountFen: number | null;
  text: string;
}

export interface ApprovalShows {
  headline: string;
  lines: ShownLine[];
  totalFen: number | null;
  supplier?: string;
  destination?: string;
  price?: { machine: string; good: string; itemId: string; fromFen: number; toFen: number };
  link?: string;
}

const UNIT_WORDS: Record<string, [string, string]> = { EA: ['unit', 'units'], BX: ['box', 'boxes'] };
const unitWords = (n: number, unit: string) => `${n} ${(UNIT_WORDS[unit] ?? [unit, unit])[n === 1 ? 0 : 1]}`;
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

/** A destination in words: who, where, how to reach them; a restock names the machines. */
export function destinationWords(methods: { type: string; destinations: Record<string, unknown>[] }[] | undefined): string | null {
  if (!methods || methods.length === 0) return null;
  const one = (type: string, d: Record<string, unknown>): string => {
    if (type === 'restock') {
      const locations = Array.isArray(d.locations) ? d.locations.filter((l): l is string => typeof l === 'string') : [];
      return `restocked into the route's machines ${locations.join(', ') || '(none named)'}`;
    }
    const person = [text(d.first_name), text(d.last_name)].filter(Boolean).join(' ');
    const where = [text(d.street_address), text(d.address_locality), text(d.address_region), text(d.postal_code)].filter(Boolean).join(', ');
    const verb = type === 'pickup' ? 'picked up at' : type === 'shipping' ? 'shipped to' : `${type} to`;
    return `${verb} ${where || '(no address)'}${person ? `, for ${person}` : ''}${text(d.phone_number) ? ` (phone ${text(d.phone_number)})` : ''}`;
  };
  return methods.flatMap((m) => (m.destinations.length ? m.destinations.map((d) => one(m.type, d)) : [`${m.type} with no destination`])).join('; ');
}

export function approvalShows(kind: ApprovalKind, subject: Record<string, unknown>): ApprovalShows {
  switch (kind) {
    case 'replenishment_run':
      return runShows(subject);
    case 'price_change':
      return priceShows(subject);
    default:
      return purchaseShows(kind, subject);
  }
}

function runShows(stored: Record<string, unknown>): ApprovalShows {
  const s = readSubject('replenishment_run', stored);
  if (!s) return { headline: 'a replenishment run (its subject is not readable)', lines: [], totalFen: null };
  const lines: ShownLine[] = (s.lines ?? []).map((l) => ({
    machine: l.machine,
    good: l.title,
    itemId: l.item_id,
    units: l.units,
    quantity: l.quantity,
    unit: l.unit,
    amountFen: l.cost_estimate_fen,
    text: `${l.machine}: ${unitWords(l.units, 'EA')} of ${l.title}${l.ordered_units !== undefined && l.ordered_units > l.units ? ` (${l.ordered_units} bought with the box rounding; the rest goes to the depot)` : ''}${l.cost_estimate_fen !== null ? `, about ${yuanText(l.cost_estimate_fen)}` : ''}`,
  }));
  const machines = new Set(lines.map((l) => l.machine)).size;
  const goods = new Set(lines.map((l) => l.itemId)).size;
  const units = lines.reduce((t, l) => t + l.units, 0);
  const what = lines.length ? `${plural(units, 'unit', 'units')} of ${plural(goods, 'good', 'goods')} for ${plural(machines, 'machine', 'machines')}` : 'goods (its lines were not recorded with the approval)';
  return {
    headline: `Replenishment run: ${what}${s.fulfiller ? ` from ${s.fulfiller.split(',').join(', ')}` : ''}, estimated ${yuanText(s.total_cost_fen)}, over the ${s.limit.replace(/_/g, '-')} budget of ${yuanText(s.limit_fen)}`,
    lines,
    totalFen: s.total_cost_fen,
    ...(s.fulfiller ? { supplier: s.fulfiller.split(',').join(', ') } : {}),
    link: `/ucp/v1/replenishment/runs/${encodeURIComponent(s.run_id)}`,
  };
}

function purchaseShows(kind: 'checkout_budget' | 'checkout_probation', stored: Record<string, unknown>): ApprovalShows {
  const s = readSubject(kind, stored);
  if (!s) return { headline: 'a purchase order (its subject is not readable)', lines: [], totalFen: null };
  const lines: ShownLine[] = s.lines.map((l) => {
    const good = l.title ?? l.id;
    const amountFen = typeof l.unit_price_fen === 'number' ? l.unit_price_fen * l.quantity : null;
    return {
      good,
      itemId: l.id,
      units: l.quantity,
      quantity: l.quantity,
      unit: l.unit,
      amountFen,
      text: `${unitWords(l.quantity, l.unit)} of ${good}${typeof l.unit_price_fen === 'number' ? ` at ${yuanText(l.unit_price_fen)} = ${yuanText(amountFen!)}` : ''}`,
    };
  });
  const destination = destinationWords(s.fulfillment);
  const why = kind === 'checkout_probation' ? 'from a supplier on probation' : 'over budget';
  return {
    headline: `Purchase order ${why}: ${plural(lines.length, 'line', 'lines')} from ${s.namespace} for ${yuanText(s.total_fen)}${destination ? `, ${destination}` : ''}`,
    lines,
    totalFen: s.total_fen,
    supplier: s.namespace,
    ...(destination ? { destination } : {}),
    link: `/ucp/v1/checkout-sessions/${encodeURIComponent(s.session_id)}`,
  };
}

function priceShows(stored: Record<string, unknown>): ApprovalShows {
  const s = readSubject('price_change', stored);
  if (!s) return { headline: 'a price change (its subject is not readable)', lines: [], totalFen: null };
  const machine = s.machine ?? s.location;
  const good = s.title ?? s.item_id;
  return {
    headline: `Price of ${good} on ${machine}: ${yuanText(s.current_fen)} → ${yuanText(s.price_fen)}`,
    lines: [],
    totalFen: null,
    price: { machine, good, itemId: s.item_id, fromFen: s.current_fen, toFen: s.price_fen },
    link: `/ucp/v1/locations/${encodeURIComponent(s.location)}/inventory`,
  };
}
