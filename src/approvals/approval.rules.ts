/** Pure rules of approvals (decisions.md section 5): who may resolve, and how a record is shown. */

export const APPROVAL_KINDS = ['checkout_budget', 'checkout_probation', 'price_change', 'replenishment_run'] as const;
export type ApprovalKind = (typeof APPROVAL_KINDS)[number];
export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected'] as const;

export interface Resolver {
  channel: 'chat_tool' | 'dashboard';
  chat_id?: string;
  sender_id?: string;
}

/**
 * A `chat_tool` resolver must be an admin of a registered admin chat; `dashboard` needs only the operator token
 * (already checked by then). Returns why it is refused, or null when allowed.
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
