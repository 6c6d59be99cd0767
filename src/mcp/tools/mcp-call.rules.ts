/**
 * A tool call's arguments → the REST request it runs (method, URL, headers, JSON body). Pure. Only the argument
 * envelope is checked here (which keys, which scalars); the body and the values go to the REST pipeline, which
 * validates them exactly as it does for HTTP clients.
 */
import { errorBody, message, UcpMessage } from '../../common/envelope/envelope';
import type { ToolDefinition } from './mcp-schemas.rules';

export interface RestCall {
  method: string;
  /** Path and query string, e.g. `/ucp/v1/orders?kind=purchase`. */
  url: string;
  headers: Record<string, string>;
  /** The JSON body, serialised; absent when the operation takes none. */
  payload?: string;
}

export type CallMapping = { ok: true; call: RestCall } | { ok: false; body: ReturnType<typeof errorBody> };

const PRINTABLE = /^[\x20-\x7e]*$/;

export function restCallOf(def: ToolDefinition, args: Record<string, unknown> | undefined): CallMapping {
  const problems: UcpMessage[] = [];
  const invalid = (path: string, text: string) => problems.push(message('invalid', 'recoverable', text, path));
  const a = args ?? {};
  const { route, spec } = def;
  const known = new Set(['meta', ...route.pathParams, ...route.queryParams, ...(route.payload ? [route.payload] : [])]);
  for (const k of Object.keys(a)) if (!known.has(k)) invalid(`$.${k}`, `${spec.tool} takes no argument "${k}" (it takes ${[...known].join(', ')})`);

  const headers: Record<string, string> = {};
  const meta = a.meta;
  if (meta !== undefined && (meta === null || typeof meta !== 'object' || Array.isArray(meta))) invalid('$.meta', 'meta must be an object');
  const m = (meta && typeof meta === 'object' ? meta : {}) as Record<string, unknown>;
  const agent = m['ucp-agent'];
  if (agent !== undefined) {
    const profile = (agent as { profile?: unknown } | null)?.profile;
    if (typeof profile !== 'string' || !PRINTABLE.test(profile)) invalid('$.meta["ucp-agent"].profile', 'ucp-agent.profile must be a string of printable ASCII (a URL)');
    else headers['ucp-agent'] = `profile="${profile.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  }
  const key = m['idempotency-key'];
  if (key !== undefined) {
    if (typeof key !== 'string' || !/^[\x21-\x7e]{1,255}$/.test(key)) invalid('$.meta["idempotency-key"]', 'idempotency-key must be 1 to 255 visible ASCII characters');
    else headers['idempotency-key'] = key;
  } else if (spec.movesMoney) {
    problems.push(message('missing', 'recoverable', `${spec.tool} moves money: meta["idempotency-key"] is required (a fresh UUID per intended action; reuse it to retry)`, '$.meta["idempotency-key"]'));
  }

  let path = route.path;
  for (const p of route.pathParams) {
    const v = a[p];
    if ((typeof v !== 'string' || v === '') && typeof v !== 'number') {
      invalid(`$.${p}`, `${p} is required: a non-empty string`);
      continue;
    }
    path = path.replace(`{${p}}`, encodeURIComponent(String(v)));
  }
  const query = new URLSearchParams();
  for (const q of route.queryParams) {
    const v = a[q];
    if (v === undefined || v === null) continue;
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') query.append(q, String(v));
    else invalid(`$.${q}`, `${q} must be one string, number or boolean`);
  }
  if (problems.length) return { ok: false, body: errorBody(problems) };

  const qs = query.toString();
  const call: RestCall = { method: route.method, url: qs ? `${path}?${qs}` : path, headers };
  if (route.payload) {
    const body = a[route.payload];
    // An absent payload is sent as no body at all, so the REST operation answers exactly what it answers an empty request.
    if (body !== undefined) call.payload = JSON.stringify(body);
  }
  return { ok: true, call };
}
