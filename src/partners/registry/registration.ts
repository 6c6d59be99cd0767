import { isVendorSlug, parseNamespace, Role } from '../../identifiers/identifiers';
import { MACHINE_CAPABILITIES, MACHINE_REQUIRED, SUPPLY_CAPABILITIES, SUPPLY_REQUIRED } from '../adapter.types';

/** One `SERVICE_HTTP_VENDORS` entry after validation. Pure: no Nest, no I/O. */
export interface Registration {
  namespace: string;
  vendor: string;
  role: Role;
  baseUrl: string;
  token: string;
  capabilities: string[];
  status: 'live' | 'planned';
  sharedIdSpace: boolean;
}

export type RegistrationResult =
  | { ok: true; registration: Registration }
  | { ok: false; namespace: string | null; role: Role | null; reason: string };

export function parseRegistration(raw: unknown, index: number): RegistrationResult {
  const fail = (reason: string, ns: string | null = null, role: Role | null = null): RegistrationResult => ({
    ok: false,
    namespace: ns,
    role,
    reason: `entry ${index}: ${reason}`,
  });
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return fail('is not an object');
  const e = raw as Record<string, unknown>;
  if (typeof e.namespace !== 'string') return fail('namespace is missing');
  const ns = parseNamespace(e.namespace);
  if (!ns || !isVendorSlug(ns.vendor)) return fail(`namespace "${e.namespace}" is not <vendor>-supply or <vendor>-machine`);
  const f = (reason: string) => fail(reason, ns.namespace, ns.role);
  if (typeof e.baseUrl !== 'string') return f('baseUrl is missing');
  let url: URL;
  try {
    url = new URL(e.baseUrl);
  } catch {
    return f('baseUrl is not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return f('baseUrl must be http or https');
  if (url.username || url.password) return f('baseUrl must not carry credentials');
  if (typeof e.token !== 'string' || e.token.trim() === '') return f('token is missing');
  if (!Array.isArray(e.capabilities) || !e.capabilities.every((c) => typeof c === 'string')) {
    return f('capabilities must be an array of strings');
  }
  const known: readonly string[] = ns.role === 'machine' ? MACHINE_CAPABILITIES : SUPPLY_CAPABILITIES;
  const required: readonly string[] = ns.role === 'machine' ? MACHINE_REQUIRED : SUPPLY_REQUIRED;
  const caps = e.capabilities as string[];
  const unknown = caps.filter((c) => !known.includes(c));
  if (unknown.length) return f(`unknown capabilities for the ${ns.role} role: ${unknown.join(', ')}`);
  const missing = required.filter((c) => !caps.includes(c));
  if (missing.length) return f(`required capabilities not declared: ${missing.join(', ')}`);
  if (e.status !== undefined && e.status !== 'live' && e.status !== 'planned') return f('status must be live or planned');
  if (e.sharedIdSpace !== undefined && typeof e.sharedIdSpace !== 'boolean') return f('sharedIdSpace must be a boolean');
  return {
    ok: true,
    registration: {
      namespace: ns.namespace,
      vendor: ns.vendor,
      role: ns.role,
      baseUrl: e.baseUrl.replace(/\/+$/, ''),
      token: e.token,
      capabilities: [...new Set(caps)],
      status: (e.status as 'live' | 'planned' | undefined) ?? 'live',
      sharedIdSpace: e.sharedIdSpace === true,
    },
  };
}
