/**
 * Identifiers (spec "Identifiers and shared types"). Pure functions, used everywhere an id is read.
 * `vendor_sku` is opaque: it is split off the namespace at the first colon and never parsed further.
 */
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

/** Slot ids are always `<location>-<vendor_sku>` (decisions.md section 10). */
export function slotId(locationId: string, vendorSku: string): string {
  return `${locationId}-${vendorSku}`;
}

export function isValidVendorSku(s: unknown): s is string {
  return typeof s === 'string' && VENDOR_SKU.test(s);
}
