/**
 * Validation of partner payloads (spec "Partner contract", the contract (docs/contract/)). Pure: no Nest, no I/O.
 *
 * List answers are checked record by record: a record with a float/string/negative amount, a bad time or a missing
 * required field is refused into `rejected[]` (the service shows it as a `warning`) and the rest is kept. Amounts
 * are never rounded. An answer that is not an object or lacks its top-level array throws PartnerError 'malformed',
 * because a failure must never look like an empty list. Single-object answers (acks, statuses) throw 'malformed'.
 */
import {
  LedgerLine,
  LedgerPage,
  LedgerRecord,
  MachineInventoryItem,
  PartnerError,
  PriceUpdateResult,
  RejectedRecord,
  RestockAck,
  RestockState,
  RestockStatus,
  SupplyOrderAck,
  SupplyOrderStatus,
  SupplyProduct,
} from '../adapter.types';

/** Namespace used in PartnerError when the caller does not name one (the adapters always do). */
const ANONYMOUS = 'partner';
/** Epoch ms before this (1973) is almost certainly epoch seconds sent by mistake: refused rather than misdated. */
const MIN_EPOCH_MS = 100_000_000_000;
const RESTOCK_STATUSES: readonly RestockStatus[] = ['pending', 'in_progress', 'completed', 'cancelled'];

type Obj = Record<string, unknown>;

/** Thrown inside a record check; turned into a RejectedRecord (list answers) or PartnerError (single answers). */
class FieldError extends Error {}

function show(v: unknown): string {
  if (v === undefined) return 'missing';
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function bad(field: string, value: unknown, why: string): never {
  throw new FieldError(value === undefined ? `${field} is missing` : `${field} ${why}: ${show(value)}`);
}

/** Integer fen, >= 0. 3.5, "350" and -1 are refused, never rounded or coerced. */
function money(o: Obj, field: string): number {
  const v = o[field];
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) bad(field, v, 'is not a non-negative integer fen amount');
  return v;
}

/** `costFen` and the like: null/absent means unknown; anything else must be integer fen. */
function moneyOrNull(o: Obj, field: string): number | null {
  return o[field] === null || o[field] === undefined ? null : money(o, field);
}

function int(o: Obj, field: string, min: number): number {
  const v = o[field];
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min) bad(field, v, `is not an integer >= ${min}`);
  return v;
}

function intOrNull(o: Obj, field: string, min: number): number | null {
  return o[field] === null || o[field] === undefined ? null : int(o, field, min);
}

function epochMs(o: Obj, field: string): number {
  const v = o[field];
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) bad(field, v, 'is not an epoch-ms integer');
  if (v < MIN_EPOCH_MS) bad(field, v, 'is not epoch ms (looks like seconds or a placeholder)');
  return v;
}

function epochMsOrNull(o: Obj, field: string): number | null {
  return o[field] === null || o[field] === undefined ? null : epochMs(o, field);
}

function text(o: Obj, field: string): string {
  const v = o[field];
  if (typeof v !== 'string' || v.trim() === '') bad(field, v, 'is not a non-empty string');
  return v;
}

function textOrNull(o: Obj, field: string): string | null {
  const v = o[field];
  if (v === null || v === undefined) return null;
  if (typeof v !== 'string') bad(field, v, 'is not a string');
  return v;
}

/** Ids that some platforms send as numbers: an integer is taken as its decimal text, never a float. */
function idText(o: Obj, field: string): string {
  const v = o[field];
  if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  return text(o, field);
}

function boolOrNull(o: Obj, field: string): boolean | null {
  const v = o[field];
  if (v === null || v === undefined) return null;
  if (typeof v !== 'boolean') bad(field, v, 'is not a boolean');
  return v;
}

function vendorSku(o: Obj, field = 'vendorSku'): string {
  const v = o[field];
  if (typeof v !== 'string' || v === '' || /[\s:]/.test(v)) bad(field, v, 'is not a non-empty id without whitespace or colon');
  return v;
}

/** The label of a record in `rejected[]`: its own id when it has a usable one. */
function idOf(raw: unknown, field: string): string | undefined {
  if (!isObj(raw)) return undefined;
  const v = raw[field];
  return typeof v === 'string' && v !== '' ? v : typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : undefined;
}

function topArray(body: unknown, key: string, namespace: string): unknown[] {
  if (!isObj(body)) throw new PartnerError('malformed', namespace, `the answer is not a JSON object (got ${show(body)})`);
  const list = body[key];
  if (!Array.isArray(list)) throw new PartnerError('malformed', namespace, `the answer has no "${key}" array (got ${show(list)})`);
  return list;
}

/** Checks every element of a list; refused ones go to `rejected` with their index and id. */
function eachRecord<T>(list: unknown[], idField: string, check: (o: Obj) => T): { ok: T[]; rejected: RejectedRecord[] } {
  const ok: T[] = [];
  const rejected: RejectedRecord[] = [];
  list.forEach((raw, index) => {
    const id = idOf(raw, idField);
    try {
      if (!isObj(raw)) throw new FieldError(`record is not an object: ${show(raw)}`);
      ok.push(check(raw));
    } catch (e) {
      if (!(e instanceof FieldError)) throw e;
      rejected.push(id === undefined ? { index, reason: e.message } : { index, id, reason: e.message });
    }
  });
  return { ok, rejected };
}

/** A single-object answer: a bad field makes the whole answer malformed (there is nothing else to keep). */
function single<T>(body: unknown, what: string, namespace: string, check: (o: Obj) => T): T {
  if (!isObj(body)) throw new PartnerError('malformed', namespace, `${what} is not a JSON object (got ${show(body)})`);
  try {
    return check(body);
  } catch (e) {
    if (e instanceof FieldError) throw new PartnerError('malformed', namespace, `${what}: ${e.message}`);
    throw e;
  }
}

// ---- machine role ----

export function parseInventory(body: unknown, namespace = ANONYMOUS): { items: MachineInventoryItem[]; rejected: RejectedRecord[] } {
  const r = eachRecord(topArray(body, 'items', namespace), 'vendorSku', (o) => ({
    vendorSku: vendorSku(o),
    title: text(o, 'title'),
    priceFen: money(o, 'priceFen'),
    stock: int(o, 'stock', 0),
    barcode: extractBarcode({ barcode: o.barcode }),
    slotId: o.slotId === null || o.slotId === undefined ? null : idText(o, 'slotId'),
    capacity: intOrNull(o, 'capacity', 0),
  }));
  return { items: r.ok, rejected: r.rejected };
}

function ledgerLine(raw: unknown, i: number): LedgerLine {
  if (!isObj(raw)) throw new FieldError(`lines[${i}] is not an object: ${show(raw)}`);
  try {
    return {
      vendorSku: vendorSku(raw),
      title: textOrNull(raw, 'title'),
      quantity: int(raw, 'quantity', 1),
      priceFen: money(raw, 'priceFen'),
      status: text(raw, 'status'),
      costFen: moneyOrNull(raw, 'costFen'),
    };
  } catch (e) {
    throw e instanceof FieldError ? new FieldError(`lines[${i}].${e.message}`) : e;
  }
}

function ledgerRecord(o: Obj): LedgerRecord {
  const lines = o.lines === undefined || o.lines === null ? [] : o.lines;
  if (!Array.isArray(lines)) bad('lines', lines, 'is not an array');
  return {
    orderNo: idText(o, 'orderNo'),
    locationId: text(o, 'locationId'),
    totalFen: money(o, 'totalFen'),
    createdAt: epochMs(o, 'createdAt'),
    takenAt: epochMsOrNull(o, 'takenAt'),
    settledAt: epochMsOrNull(o, 'settledAt'),
    updatedAt: epochMsOrNull(o, 'updatedAt'),
    finalized: boolOrNull(o, 'finalized'),
    // Passed through as given: mapping a partner's word onto the six trade states is the domain's job.
    state: textOrNull(o, 'state'),
    stateRaw: textOrNull(o, 'stateRaw'),
    stateLabel: textOrNull(o, 'stateLabel'),
    lines: lines.map(ledgerLine),
  };
}

/**
 * One ledger page. `hasMore` comes from the body when it is a boolean; otherwise a page holding `size` records
 * (refused ones included: they were sent) may have a successor, and a shorter page is the last.
 */
export function parseLedgerPage(body: unknown, size: number, namespace = ANONYMOUS): LedgerPage {
  const list = topArray(body, 'records', namespace);
  const r = eachRecord(list, 'orderNo', ledgerRecord);
  const declared = (body as Obj).hasMore;
  const hasMore = typeof declared === 'boolean' ? declared : list.length >= size;
  return { records: r.ok, rejected: r.rejected, hasMore };
}

/** POST /prices answer. `rejected` lists confirmations with a bad amount (the rest is kept). */
export function parsePriceResult(body: unknown, namespace = ANONYMOUS): PriceUpdateResult & { rejected: RejectedRecord[] } {
  const r = eachRecord(topArray(body, 'updated', namespace), 'vendorSku', (o) => ({
    vendorSku: vendorSku(o),
    previousFen: money(o, 'previousFen'),
    priceFen: money(o, 'priceFen'),
  }));
  return { updated: r.ok, rejected: r.rejected };
}

/**
 * POST /restock answer. `accepted` is the number of lines taken; a partner answering `true`/`false` is read as
 * all of `lineCount` or none, since both readings of the contract exist in the field.
 */
export function parseRestockAck(body: unknown, lineCount?: number, namespace = ANONYMOUS): RestockAck {
  return single(body, 'restock answer', namespace, (o) => {
    let accepted: number;
    if (typeof o.accepted === 'boolean' && lineCount !== undefined) accepted = o.accepted ? lineCount : 0;
    else accepted = int(o, 'accepted', 0);
    return { accepted, externalRef: o.externalRef === null || o.externalRef === undefined ? null : idText(o, 'externalRef') };
  });
}

export function parseRestockState(body: unknown, namespace = ANONYMOUS): RestockState {
  return single(body, 'restock status', namespace, (o) => {
    const status = o.status;
    if (typeof status !== 'string' || !(RESTOCK_STATUSES as readonly string[]).includes(status)) {
      bad('status', status, `is not one of ${RESTOCK_STATUSES.join('|')}`);
    }
    const delivered = o.delivered === undefined || o.delivered === null ? [] : o.delivered;
    if (!Array.isArray(delivered)) bad('delivered', delivered, 'is not an array');
    return {
      ref: text(o, 'ref'),
      status: status as RestockStatus,
      delivered: delivered.map((d, i) => {
        if (!isObj(d)) throw new FieldError(`delivered[${i}] is not an object: ${show(d)}`);
        return { vendorSku: vendorSku(d), quantity: int(d, 'quantity', 0) };
      }),
      completedAt: epochMsOrNull(o, 'completedAt'),
      externalRef: o.externalRef === null || o.externalRef === undefined ? null : idText(o, 'externalRef'),
    };
  });
}

// ---- supply role ----

/** Barcode lengths that occur on goods: EAN-8, UPC-A (12), EAN-13, GTIN-14. */
const BARCODE_RUN = /(?<!\d)(\d{14}|\d{13}|\d{12}|\d{8})(?!\d)/;

/**
 * The product's barcode: the `barcode` field when it is a non-empty string, else the first 8/12/13/14-digit run
 * found in `spec`, then in `title` (partners often have no barcode field and write it into the description).
 */
export function extractBarcode(product: { barcode?: unknown; spec?: unknown; title?: unknown }): string | null {
  if (typeof product.barcode === 'string' && product.barcode.trim() !== '') return product.barcode.trim();
  for (const source of [product.spec, product.title]) {
    if (typeof source !== 'string') continue;
    const m = BARCODE_RUN.exec(source);
    if (m) return m[1];
  }
  return null;
}

export function parseCatalog(body: unknown, namespace = ANONYMOUS): { products: SupplyProduct[]; rejected: RejectedRecord[] } {
  const r = eachRecord(topArray(body, 'products', namespace), 'vendorSku', (o) => {
    const sites = o.sites === undefined || o.sites === null ? null : o.sites;
    if (sites !== null && !Array.isArray(sites)) bad('sites', sites, 'is not an array');
    return {
      vendorSku: vendorSku(o),
      title: text(o, 'title'),
      packSize: int(o, 'packSize', 1),
      packPriceFen: money(o, 'packPriceFen'),
      eachPriceFen: money(o, 'eachPriceFen'),
      eachPriceDerived: boolOrNull(o, 'eachPriceDerived') ?? false,
      stock: int(o, 'stock', 0),
      barcode: extractBarcode(o),
      spec: textOrNull(o, 'spec'),
      // Kept for margin checks inside the service; never rendered in catalog responses.
      costFen: moneyOrNull(o, 'costFen'),
      sites,
    };
  });
  return { products: r.ok, rejected: r.rejected };
}

export function parseOrderAck(body: unknown, namespace = ANONYMOUS): SupplyOrderAck {
  return single(body, 'order answer', namespace, (o) => ({
    ref: text(o, 'ref'),
    orderId: o.orderId === null || o.orderId === undefined ? null : idText(o, 'orderId'),
    state: text(o, 'state'),
    rawStatus: textOrNull(o, 'rawStatus'),
  }));
}

export function parseOrderStatus(body: unknown, namespace = ANONYMOUS): SupplyOrderStatus {
  return single(body, 'order status', namespace, (o) => {
    const logistics = o.logistics === undefined || o.logistics === null ? [] : o.logistics;
    if (!Array.isArray(logistics)) bad('logistics', logistics, 'is not an array');
    return {
      ref: text(o, 'ref'),
      state: text(o, 'state'),
      rawStatus: textOrNull(o, 'rawStatus'),
      logistics: logistics.map((l, i) => {
        if (!isObj(l)) throw new FieldError(`logistics[${i}] is not an object: ${show(l)}`);
        return {
          carrier: textOrNull(l, 'carrier'),
          trackingNo: l.trackingNo === null || l.trackingNo === undefined ? null : idText(l, 'trackingNo'),
          status: textOrNull(l, 'status'),
          updatedAt: epochMsOrNull(l, 'updatedAt'),
        };
      }),
    };
  });
}
