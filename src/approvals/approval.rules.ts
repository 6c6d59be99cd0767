/** Pure rules of approvals (decisions.md section 5): who may resolve, and how a record is shown. */
import { stateMachine } from '../common/state-machine.rules';

export const APPROVAL_KINDS = ['checkout_budget', 'checkout_probation', 'price_change', 'replenishment_run'] as const;
export type ApprovalKind = (typeof APPROVAL_KINDS)[number];
/** `withdrawn`: its subject went away before anyone decided (a replenishment run cancelled, issue 25). */
export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected', 'withdrawn'] as const;

/** Stored statuses: `executing` is a claimed decision whose action runs (shown as pending). */
export type StoredApprovalStatus = (typeof APPROVAL_STATUSES)[number] | 'executing';

/**
 * Every legal status move of an approval: a decision claims it (`executing`); its action's end records the
 * decision, and a failed or interrupted action that did not take effect makes it pending again.
 */
export const APPROVAL_MACHINE = stateMachine<StoredApprovalStatus>('approval', {
  pending: ['executing', 'withdrawn'],
  executing: ['approved', 'rejected', 'pending'],
  approved: [],
  rejected: [],
  withdrawn: [],
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

/**
 * A `chat_tool` resolver must be an admin of a registered admin chat; `dashboard` needs only the credential
 * AuthGuard already checked (the approver's when SERVICE_APPROVER_TOKEN is set, see resolutionNeedsApprover). Returns why it is refused, or null when allowed.
 */
export function resolverRefusal(resolver: Resolver, adminChats: { chat_id: string; admins: string[] }[]): string | null {
  if (resolver.channel === 'dashboard') return null;
  if (!resolver.chat_id || !resolver.sender_id) return 'a chat_tool resolver needs chat_id and sender_id';
  const chat = adminChats.find((c) => c.chat_id === resolver.chat_id);
  if (!chat) return `chat ${resolver.chat_id} is not a registered admin chat`;
  if (!chat.admins.includes(resolver.sender_id)) return `sender ${resolver.sender_id} is not an admin of chat ${resolver.chat_id}`;
  return null;
}

/** `executing` (an approval whose action is running) is shown as pending. */
export function publicStatus(stored: string): string {
  return stored === 'executing' ? 'pending' : stored;
}

/** Stored statuses matching a `status` query value (pending includes executing; `all` matches everything). */
export function storedStatusesFor(query: string): string[] | null {
  if (query === 'all') return null;
  if (query === 'pending') return ['pending', 'executing'];
  return [query];
}
