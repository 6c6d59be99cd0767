import type { ReplicaStatus } from '../database/replicas/replica-set';

/**
 * What /readyz says of the replicas (issue 38): each one's state and lag. A replica that is down or lagging does not
 * make the instance unready: its reads go to the primary.
 */
export function replicasReport(status: ReplicaStatus[]): { replicas?: { replica: string; state: string; lag_ms: number | null }[] } {
  if (status.length === 0) return {};
  return { replicas: status.map((s) => ({ replica: s.replica, state: s.state, lag_ms: s.lag_ms })) };
}
