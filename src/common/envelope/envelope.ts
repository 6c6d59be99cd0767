/** The UCP envelope and messages (spec "Envelope and messages", the contract (docs/contract/)). */
import type { MessageCode } from '../errors/message-codes';
import type { Severity } from '../errors/severity';

export const UCP_VERSION = '2026-08-25';

export interface UcpMessage {
  type: 'error' | 'warning' | 'info';
  code: MessageCode;
  severity: Severity;
  path: string;
  content: string;
  content_type: 'plain';
}

export interface CapabilityVersion {
  version: string;
  config?: Record<string, unknown>;
}

export interface UcpHeader {
  version: string;
  status: 'success' | 'error';
  capabilities?: Record<string, CapabilityVersion[]>;
}

export function message(code: MessageCode, severity: Severity, content: string, path = '$'): UcpMessage {
  const type = severity === 'warning' ? 'warning' : severity === 'info' ? 'info' : 'error';
  return { type, code, severity, path, content, content_type: 'plain' };
}

export const warning = (code: MessageCode, content: string, path = '$'): UcpMessage =>
  message(code, 'warning', content, path);

/**
 * Wraps a success body. Controllers return `ok({...})`; `messages` defaults to [] so that
 * every response carries the array (spec: messages are read before the data).
 */
export function ok<T extends object>(
  body: T,
  opts: { capabilities?: string[]; messages?: UcpMessage[] } = {},
): T & { ucp: UcpHeader; messages: UcpMessage[] } {
  const ucp: UcpHeader = { version: UCP_VERSION, status: 'success' };
  if (opts.capabilities) ucp.capabilities = capabilitiesOf(opts.capabilities);
  const existing = (body as { messages?: UcpMessage[] }).messages;
  return { ucp, ...body, messages: [...(existing ?? []), ...(opts.messages ?? [])] };
}

export function errorBody(messages: UcpMessage[]): { ucp: UcpHeader; messages: UcpMessage[] } {
  return { ucp: { version: UCP_VERSION, status: 'error' }, messages };
}

/**
 * UCP's own capabilities the service implements, under their UCP names and at the UCP version (issue 29: a UCP
 * client looks for `dev.ucp.shopping.checkout` in discovery). Listed beside the extensions; the shapes the vending
 * spec overrides on purpose are in docs/adr/0054-ucp-schema-overrides.md.
 */
export const UCP_CAPABILITY_VERSIONS: Record<string, string> = {
  'dev.ucp.shopping.checkout': UCP_VERSION,
  'dev.ucp.shopping.catalog.search': UCP_VERSION,
  'dev.ucp.shopping.catalog.lookup': UCP_VERSION,
};

/** Versions of the service's own extension capabilities (spec "Versioning"). */
export const CAPABILITY_VERSIONS: Record<string, string> = {
  'com.example.svc.inventory': '2026-09-09',
  'com.example.svc.sku': '2026-09-10',
  'com.example.svc.location': '2026-09-09',
  'com.example.svc.order': '2026-09-10',
  'com.example.svc.pricing': '2026-09-10',
  'com.example.svc.replenishment': '2026-09-10',
  'com.example.svc.approval': '2026-09-10',
  'com.example.svc.events': '2026-09-10',
};

export function capabilitiesOf(names: string[]): Record<string, CapabilityVersion[]> {
  const out: Record<string, CapabilityVersion[]> = {};
  for (const n of names) out[n] = [{ version: CAPABILITY_VERSIONS[n] ?? UCP_VERSION }];
  return out;
}
