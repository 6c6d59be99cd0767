/**
 * Identifiers (spec "Identifiers and shared types"). Pure functions, used everywhere an id is read.
 * `vendor_sku` is opaque: it is split off the namespace at the first colon and never parsed further.
 */
import { Errors } from '../common/errors/errors';

export type Role = 'supply' | 'machine';

export interface ParsedSkuId {
  skuId: string;
  namespace: string;
  vendor: string;
  role: Role;
  vendorSku: string;
}

const VENDOR = /^[a-z0-9][a-z0-9_]*$/;
const NAMESPACE = /^([a-z0-9][a-z0-9_]*)-(supply|machine)$/;
const VENDOR_SKU = /^[^\s:]+$/;
export const LOCATION_ID = /^[A-Za-z0-9._-]{1,64}$/;

export function parseNamespace(ns: string): { namespace: string; vendor: string; role: Role } | null {
  const m = NAMESPACE.exec(ns);
  return m ? { namespace: ns, vendor: m[1], role: m[2] as Role } : null;
}

export function isVendorSlug(v: string): boolean {
  return VENDOR.test(v);
}

/** `<vendor>-<role>:<vendor_sku>`; null when malformed. */
export function parseSkuId(id: unknown): ParsedSkuId | null {
  if (typeof id !== 'string') return null;
  const i = id.indexOf(':');
  if (i <= 0) return null;
  const ns = parseNamespace(id.slice(0, i));
  const vendorSku = id.slice(i + 1);
  if (!ns || !VENDOR_SKU.test(vendorSku)) return null;
  return { skuId: id, namespace: ns.namespace, vendor: ns.vendor, role: ns.role, vendorSku };
}

export function skuId(namespace: string, vendorSku: string): string {
  return `${namespace}:${vendorSku}`;
}

export function isLocationId(id: unknown): id is string {
  return typeof id === 'string' && LOCATION_ID.test(id);
}

/** Slot ids are always `<location>-<vendor_sku>` (docs/contract/). */
export function slotId(locationId: string, vendorSku: string): string {
  return `${locationId}-${vendorSku}`;
}

// ---- validation that answers the spec's errors (used by every endpoint that reads an id) ----
// Kept pure: these throw DomainError values (plain classes), never touch Nest or the registry.


/** A `sku_id` from a request: 400 `missing` when absent, 400 `invalid` when malformed. */
export function requireSkuId(value: unknown, path: string): ParsedSkuId {
  if (value === undefined || value === null || value === '') throw Errors.missing(path);
  const parsed = parseSkuId(value);
  if (!parsed) {
    throw Errors.invalid(path, `${path} must be a sku_id <vendor>-<role>:<vendor_sku> (role supply or machine; vendor_sku without colon or whitespace), got ${describe(value)}`);
  }
  return parsed;
}

/** A namespace from a request: 400 `missing` / `invalid` (its registration is checked by PartnerRegistry.usable). */
export function requireNamespace(value: unknown, path: string): { namespace: string; vendor: string; role: Role } {
  if (value === undefined || value === null || value === '') throw Errors.missing(path);
  const ns = typeof value === 'string' ? parseNamespace(value) : null;
  if (!ns) throw Errors.invalid(path, `${path} must be a namespace <vendor>-supply or <vendor>-machine, got ${describe(value)}`);
  return ns;
}

/** 400 `namespace_mismatch` when an id of the other role reaches an endpoint that serves only `role`. */
export function requireRole<T extends { role: Role; namespace: string }>(parsed: T, role: Role, path: string): T {
  if (parsed.role !== role) {
    throw Errors.namespaceMismatch(path, `${parsed.namespace} is a ${parsed.role} namespace; this endpoint serves ${role} ids`);
  }
  return parsed;
}

/** A location (machine) id: 400 `missing` / `invalid`. */
export function requireLocationId(value: unknown, path: string): string {
  if (value === undefined || value === null || value === '') throw Errors.missing(path);
  if (!isLocationId(value)) throw Errors.invalid(path, `${path} must match ^[A-Za-z0-9._-]{1,64}$, got ${describe(value)}`);
  return value;
}

/** Splits a slot id `<location>-<vendor_sku>` when the location is known (a location id may itself contain '-'). */
export function slotVendorSku(slot: string, locationId: string): string | null {
  const prefix = `${locationId}-`;
  return slot.startsWith(prefix) && slot.length > prefix.length ? slot.slice(prefix.length) : null;
}

function describe(v: unknown): string {
  const s = typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v) ?? String(v);
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}
