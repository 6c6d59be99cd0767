/**
 * Every API call of the console goes through the generated typed client (clients/typescript: openapi-fetch over the
 * types generated from docs/openapi.json). The browser authenticates with the HttpOnly cookie set at sign-in; the
 * console never holds the operator token. The owner credential, when one is typed in, is sent for that one call only.
 */
import createClient from 'openapi-fetch';
import type { components, paths } from '../../clients/typescript/schema';

export type Schemas = components['schemas'];
export type UcpMessage = Schemas['UcpMessageView'];
export type KillSwitch = Schemas['KillSwitchView'];

export const api = createClient<paths>({ baseUrl: window.location.origin, credentials: 'same-origin' });

/** A refused or failed call, carrying the envelope's messages (or one made up for a network failure). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly messages: UcpMessage[],
  ) {
    super(messages.map((m) => m.content).join('; ') || `HTTP ${status}`);
  }
}

type Listener = () => void;
const unauthorizedListeners = new Set<Listener>();
/** The App signs the person out (shows the form) when any call answers 401. */
export function onUnauthorized(l: Listener): () => void {
  unauthorizedListeners.add(l);
  return () => unauthorizedListeners.delete(l);
}

const madeUp = (code: string, content: string): UcpMessage => ({ type: 'error', code, severity: 'recoverable', path: '$', content, content_type: 'plain' });

/**
 * Unwraps an openapi-fetch answer: the data, or an ApiError with the envelope's messages. A network failure or a
 * body that is not an envelope still becomes a message, so a failed read is never shown as an empty list.
 */
export async function call<T>(p: Promise<{ data?: T; error?: unknown; response: Response }>, opts: { ownCredential?: boolean } = {}): Promise<T> {
  let r: Awaited<typeof p>;
  try {
    r = await p;
  } catch (e) {
    throw new ApiError(0, [madeUp('network', `the service could not be reached (${(e as Error).message})`)]);
  }
  if (r.response.ok && r.data !== undefined) return r.data;
  // A 401 to a call made with a typed-in owner credential refuses that credential, not the signed-in session.
  if (r.response.status === 401 && !opts.ownCredential) unauthorizedListeners.forEach((l) => l());
  const env = r.error as { messages?: UcpMessage[] } | undefined;
  const messages = Array.isArray(env?.messages) && env.messages.length ? env.messages : [madeUp('http_error', `HTTP ${r.response.status} ${r.response.statusText}`)];
  throw new ApiError(r.response.status, messages);
}

/** Headers for one call made with the owner credential (issue 17's SERVICE_APPROVER_TOKEN); nothing when blank. */
export function ownerHeaders(ownerToken: string): Record<string, string> | undefined {
  const t = ownerToken.trim();
  return t ? { Authorization: `Bearer ${t}` } : undefined;
}

export async function signIn(token: string): Promise<void> {
  await call(api.POST('/ucp/v1/auth/session', { body: { token } }));
}

export async function signOut(): Promise<void> {
  await call(api.DELETE('/ucp/v1/auth/session', {}));
}
