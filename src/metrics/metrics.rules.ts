/**
 * Pure rules of the metrics (issue 28): label values kept to a bounded set, and what a recovery pass reports.
 * No Nest or prom-client import.
 */

/** The partner endpoint of a contract path, without the reference it names: `/orders/A-1` -> `/orders/{ref}`. */
export function partnerEndpoint(method: string, path: string): string {
  const bare = path.split('?')[0];
  const segments = bare.split('/').filter((s) => s !== '');
  if (segments.length === 0) return `${method} /`;
  return `${method} /${segments[0]}${segments.length > 1 ? '/{ref}' : ''}`;
}

/** The route label of a request: the matched route's pattern (ids stay out of labels), else one of a few fixed words. */
export function routeLabel(matched: string | undefined, path: string): string {
  if (matched) return matched;
  if (path === '/console' || path.startsWith('/console/')) return '/console/*';
  return 'unmatched';
}

/**
 * The money claims a recovery pass settled, by outcome, when the pass reports a tally (RecoveryTally; checkout's
 * pass names `placed` `completed`), else null.
 */
export function recoveredOutcomes(result: unknown): { placed: number; released: number; left: number } | null {
  if (result === null || typeof result !== 'object') return null;
  const t = result as Record<string, unknown>;
  const placed = t.placed ?? t.completed;
  if (![t.checked, placed, t.released, t.left].every((n) => typeof n === 'number')) return null;
  return { placed: placed as number, released: t.released as number, left: t.left as number };
}

/** The claim kinds of the recovery jobs, as `money_claims{kind}` names them (by the first part of the job's name). */
const KIND_OF_JOB_PREFIX: Record<string, string> = { checkout: 'checkout', replenishment: 'replenishment_run', approvals: 'approval', restock: 'restock' };

/** The claim kind a recovery job settles: `checkout.recovery` -> `checkout`, `approvals.recovery` -> `approval`. */
export function claimKindOfJob(job: string): string {
  const prefix = job.split('.')[0];
  return KIND_OF_JOB_PREFIX[prefix] ?? prefix;
}
