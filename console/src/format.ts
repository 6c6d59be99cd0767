/** Display helpers: money is integer fen, times are shown in the browser's locale. */
export function yuan(p: { amount: number } | null | undefined): string {
  if (!p) return '—';
  return `¥${(p.amount / 100).toFixed(2)}`;
}

export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
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
