/** Pure rules of approvals (docs/contract/): who may resolve, and how a record is shown. */
import { stateMachine } from '../common/state-machine.rules';

export const APPROVAL_KINDS = ['checkout_budget', 'checkout_probation', 'price_change', 'replenishment_run'] as const;
export type ApprovalKind = (typeof APPROVAL_KINDS)[number];
export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

/** Stored statuses: `executing` is a claimed decision whose action runs (shown as pending). */
export type StoredApprovalStatus = (typeof APPROVAL_STATUSES)[number] | 'executing';

/**
 * Every legal status move of an approval: a decision claims it (`executing`); its action's end records the
 * decision, and a failed or interrupted action that did not take effect makes it pending again.
 */
export const APPROVAL_MACHINE = stateMachine<StoredApprovalStatus>('approval', {
  // pending -> rejected: withdrawn because its subject went away (a cancelled run), no action to run.
  pending: ['executing', 'rejected'],
  executing: ['approved', 'rejected', 'pending'],
  approved: [],
  rejected: [],
});

export interface Resolver {
  channel: 'chat_tool' | 'dashboard';
  chat_id?: string;
  sender_id?: string;
}

/**
 * Whether resolving needs the approver credential (its raw body): every resolution but one on the `chat_tool`
 * channel, which keeps its admin rule (no resolver means the dashboard).
 */
export function resolutionNeedsApprover(body: unknown): boolean {
  const resolver = body !== null && typeof body === 'object' ? (body as { resolver?: unknown }).resolver : undefined;
  const channel = resolver !== null && typeof resolver === 'object' ? (resolver as { channel?: unknown }).channel : undefined;
  return channel !== 'chat_tool';
}

/** Who may resolve: the registered admin chats, their integration credentials, and whether separation of duties is on. */
export interface ResolutionPolicy {
  adminChats: { chat_id: string; admins: string[] }[];
  /** SERVICE_APPROVER_TOKEN is set: the chat channel then needs the chat's own credential (issue 26). */
  separation: boolean;
}

export interface ResolvingCaller {
  credential: 'operator' | 'approver' | 'chat' | 'agent';
  /** The chat whose integration credential authenticated the request (credential `chat`). */
  chatId: string | null;
}

/**
 * The one answer to a refused resolution (issue 26): it never says whether the chat or the sender was unknown, so a
 * caller cannot enumerate admins; the reason `resolverRefusal` returns goes to the log only.
 */
export const RESOLUTION_REFUSED = 'this resolver may not resolve approvals with this credential (a chat resolution needs the chat\'s own credential and a registered admin of that chat)';

/**
 * Whether a resolution is allowed (docs/adr/0039-owner-and-chat-credentials.md). `dashboard` needs only what AuthGuard checked (the
 * approver's credential when SERVICE_APPROVER_TOKEN is set); a chat credential never resolves there. `chat_tool` needs
 * a registered admin of a registered chat and, with separation on, the credential of that very chat (held by its
 * bot): the operator and approver tokens resolve nothing there. Without separation the spec's rule stands (any token
 * plus a registered admin in a registered chat), and a chat credential still resolves only for its own chat.
 * Returns why it is refused (for the log), or null when allowed.
 */
export function resolverRefusal(resolver: Resolver, caller: ResolvingCaller, policy: ResolutionPolicy): string | null {
  // An OAuth grant never carries the owner's powers (issue 36): an agent resolves on no channel.
  if (caller.credential === 'agent') return 'an agent connected through OAuth never resolves approvals';
  if (resolver.channel === 'dashboard') return caller.credential === 'chat' ? 'a chat credential resolves on the chat_tool channel only' : null;
  if (!resolver.chat_id || !resolver.sender_id) return 'a chat_tool resolver needs chat_id and sender_id';
  const chat = policy.adminChats.find((c) => c.chat_id === resolver.chat_id);
  if (!chat) return `chat ${resolver.chat_id} is not a registered admin chat`;
  if (!chat.admins.includes(resolver.sender_id)) return `sender ${resolver.sender_id} is not an admin of chat ${resolver.chat_id}`;
  if (caller.credential === 'chat') return caller.chatId === resolver.chat_id ? null : `the credential of chat ${caller.chatId} claimed chat ${resolver.chat_id}`;
  if (policy.separation) return `with SERVICE_APPROVER_TOKEN set, the ${caller.credential} credential resolves on no chat; the chat's own credential is needed`;
  return null;
}

/**
 * A resolver as a caller may see it: the admins' chat and sender ids only to the approver when separation is on
 * (issue 26); without SERVICE_APPROVER_TOKEN the one operator token is the owner and sees them.
 */
export function resolverShownTo<R extends { chat_id?: unknown; sender_id?: unknown }>(resolver: R | null, caller: ResolvingCaller | null, separation: boolean): R | null {
  if (!resolver || !separation || caller?.credential === 'approver') return resolver;
  const { chat_id: _chat, sender_id: _sender, ...rest } = resolver;
  return rest as R;
}

/** `executing` (an approval whose action is running) is shown as pending. */
export function publicStatus(stored: string): ApprovalStatus {
  return stored === 'executing' ? 'pending' : (stored as ApprovalStatus);
}

/** Stored statuses matching a `status` query value (pending includes executing; `all` matches everything). */
export function storedStatusesFor(query: string): string[] | null {
  if (query === 'all') return null;
  if (query === 'pending') return ['pending', 'executing'];
  return [query];
}

/**
 * Who may withdraw a pending request (issues 29 and 30): the credential that asked for it, or the approver (who could
 * reject it anyway). A request recorded before requesters were kept names none: any token holder may. Returns why it
 * is refused, or null when allowed.
 */
export function withdrawRefusal(requestedBy: { credential?: string; client_id?: string } | null, caller: { credential: string; agent?: { clientId: string } }): string | null {
  const asked = requestedBy?.credential;
  if (!asked || caller.credential === 'approver') return null;
  // An agent's request is its client's (issue 36): another agent, or the same credential kind, is not the asker.
  if (caller.credential === asked && (asked !== 'agent' || caller.agent?.clientId === requestedBy?.client_id)) return null;
  if (asked === 'agent') return `only the agent that asked for it (${requestedBy?.client_id ?? 'unknown'}) or the approver may withdraw this request`;
  return `only the credential that asked for it (${asked}) or the approver may withdraw this request`;
}
