/**
 * What an owner's approval of a purchase order covers (issue 37), pure: everything that moves money or goods. The
 * supplier, every line (good, unit, quantity, unit price), the total, and the fulfillment (method and destination,
 * every field as given). Any change to any of it gives another key, so an approval of the old key no longer counts.
 */
import { createHash } from 'node:crypto';

export interface SubjectLine {
  itemId: string;
  unit: string;
  quantity: number;
  unitPriceFen: number | null;
}

/** JSON with sorted object keys: the same fulfillment written in another key order is the same destination. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

const digest = (parts: unknown): string => createHash('sha256').update(canonicalJson(parts)).digest('base64url');

/**
 * What goes to whom, without prices: the supplier, the lines (good, unit, quantity; their order does not matter) and
 * the fulfillment. A replenishment run's approval names its purchase orders by this key (their prices are read
 * again when the run is placed; the run's approved total bounds them).
 */
export function purchaseKey(input: { namespace: string; lines: Omit<SubjectLine, 'unitPriceFen'>[]; fulfillment: unknown }): string {
  const lines = input.lines.map((l) => `${l.itemId}|${l.unit}|${l.quantity}`).sort();
  return `po1:${digest({ ns: input.namespace, lines, fulfillment: input.fulfillment ?? null })}`;
}

/** The key a checkout approval covers: the purchase key plus each line's unit price and the total. */
export function sessionKey(input: { namespace: string; lines: SubjectLine[]; totalFen: number; fulfillment: unknown }): string {
  const prices = input.lines.map((l) => `${l.itemId}|${l.unit}|${l.unitPriceFen ?? 'none'}`).sort();
  return `s2:${digest({ po: purchaseKey(input), prices, total: input.totalFen })}`;
}

/** The fulfillment an approval shows: each method with its destinations, as given (trimmed to the stored fields). */
export interface SubjectFulfillment {
  type: string;
  destinations: Record<string, unknown>[];
}

export function subjectFulfillment(fulfillment: unknown): SubjectFulfillment[] {
  const methods = (fulfillment as { methods?: unknown } | null)?.methods;
  if (!Array.isArray(methods)) return [];
  return methods.map((m: unknown) => {
    const method = (m ?? {}) as { type?: unknown; destinations?: unknown };
    const destinations = Array.isArray(method.destinations) ? method.destinations.filter((d): d is Record<string, unknown> => d !== null && typeof d === 'object') : [];
    return { type: typeof method.type === 'string' ? method.type : 'unknown', destinations };
  });
}
