/**
 * Display helpers in the operator's language: money is integer fen shown as ¥1,657.40, times are the business zone
 * (+08:00) whatever the browser's zone (each screen says so once, ZONE_NOTE), statuses are words.
 */
export const ZONE_NOTE = 'Times are China time (UTC+08:00).';

/** Fen as yuan with thousands separators: 165740 → ¥1,657.40; negative amounts keep their sign before the ¥. */
export function fenText(fen: number): string {
  const neg = fen < 0;
  const abs = Math.round(Math.abs(fen));
  const whole = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${neg ? '-' : ''}¥${whole}.${String(abs % 100).padStart(2, '0')}`;
}

export function yuan(p: { amount: number } | null | undefined): string {
  if (!p) return '—';
  return fenText(p.amount);
}

/** An instant as its +08:00 wall time, `2026-11-25 21:49` (the zone is said once per screen, not per time). */
export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  const ms = new Date(iso).getTime();
  if (Number.isNaN(ms)) return iso;
  return new Date(ms + 8 * 3_600_000).toISOString().slice(0, 16).replace('T', ' ');
}

/** The +08:00 calendar day of an instant (YYYY-MM-DD). */
export function plus8Day(ms: number): string {
  return new Date(ms + 8 * 3_600_000).toISOString().slice(0, 10);
}

export type Freshness = 'fresh' | 'aging' | 'stale' | 'never';

/** Data freshness of a machine by the age of its last sync: under 3 h, 3 to 8 h, over 8 h, never. */
export function freshness(lastSyncedAt: string | null, now = Date.now()): Freshness {
  if (!lastSyncedAt) return 'never';
  const hours = (now - new Date(lastSyncedAt).getTime()) / 3_600_000;
  if (hours < 3) return 'fresh';
  if (hours <= 8) return 'aging';
  return 'stale';
}

export function age(iso: string | null, now = Date.now()): string {
  if (!iso) return 'never synced';
  const mins = Math.max(0, Math.round((now - new Date(iso).getTime()) / 60_000));
  if (mins < 1) return 'just now';
  if (mins < 60) return `${mins} min ago`;
  const h = Math.floor(mins / 60);
  return h < 48 ? `${h} h ${mins % 60} min ago` : `${Math.floor(h / 24)} days ago`;
}

/** Who fills a run or plan: its namespace, or every namespace it orders from. */
export function fulfillerText(f: { kind: string; namespace: string | null; namespaces?: string[] }): string {
  return f.namespace ?? (f.namespaces?.length ? f.namespaces.join(', ') : f.kind.replace(/_/g, ' '));
}

const STATUS_WORDS: Record<string, string> = {
  awaiting_approval: 'waiting for approval',
  requires_escalation: 'waiting for an owner',
  ready_for_complete: 'ready to complete',
  complete_in_progress: 'completing',
  in_progress: 'in progress',
  pending_review: 'waiting for review',
  payment_failed: 'payment failed',
  refund_failed: 'refund failed',
  not_placed: 'not placed',
  canceled: 'cancelled',
  withdrawn: 'withdrawn',
};

/** A status code as words: `awaiting_approval` → "waiting for approval", anything else with its underscores spaced. */
export function statusWord(s: string | null | undefined): string {
  if (!s) return 'unknown';
  return STATUS_WORDS[s] ?? s.toLowerCase().replace(/_/g, ' ');
}

/** A supplier's status: its own description when it gives one, else the mapped status in words. */
export function supplierStatusText(s: { code: string; description?: string | null; mapped?: string | null } | null | undefined): string {
  if (!s) return '—';
  if (s.description && s.description.trim()) return s.description;
  return s.mapped ? statusWord(s.mapped) : statusWord(s.code);
}

/** Words a person reads instead of the service's internals (amounts in fen, credentials' variable names, doc paths). */
export function humanize(text: string): string {
  return text
    .replace(/^\$[\w.[\]"']*\s+/, '') // the field's path leads a validation message; its label is shown instead
    .replace(/^must match .*?, got ("[^"]*")$/, '$1 is not valid here')
    .replace(/\$\.[\w.[\]]+/g, (p) => (fieldLabel(p) ?? 'a field').toLowerCase())
    .replace(/(-?\d+) ?(?:->|→) ?(-?\d+) fen\b/g, (_m, a: string, b: string) => `${fenText(Number(a))} → ${fenText(Number(b))}`)
    .replace(/(-?\d+) fen\b/g, (_m, a: string) => fenText(Number(a)))
    .replace(/SERVICE_APPROVER_TOKEN/g, 'the owner credential')
    .replace(/SERVICE_[A-Z_]+/g, 'a setting of the service')
    .replace(/docs\/([a-z-]+)\.md/g, (_m, d: string) => `the ${d.replace(/-/g, ' ')} document`);
}

const FIELD_LABELS: Record<string, string> = {
  price: 'New price',
  prices: 'New price',
  amount: 'Amount',
  quantity: 'Quantity',
  reason: 'Reason',
  token: 'Operator token',
  location: 'Machine',
  item: 'Product',
  delivered: 'Delivered quantity',
  from: 'From date',
  to: 'To date',
  trade_status: 'Status',
  approved: 'Decision',
  engaged: 'Kill switch',
};

/** The field a JSONPath names, as its label on the form: `$.prices[0].price.amount` → "New price". */
export function fieldLabel(path: string | null | undefined): string | null {
  if (!path || path === '$') return null;
  const parts = path.replace(/^\$\.?/, '').split(/[.[\]]+/).filter((p) => p && !/^\d+$/.test(p));
  for (const p of parts) if (FIELD_LABELS[p] && (p === 'price' || p === 'prices')) return FIELD_LABELS[p];
  const last = parts[parts.length - 1];
  if (!last) return null;
  return FIELD_LABELS[last] ?? last.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
}

/** "1 order", "3 orders". */
export const orders = (n: number) => `${n} ${n === 1 ? 'order' : 'orders'}`;
