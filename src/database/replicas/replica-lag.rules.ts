/**
 * How far a streaming replica is behind the primary, from positions in the write-ahead log (issue 38). Pure rules.
 *
 * The monitor samples the primary's WAL position (`pg_current_wal_lsn()`) at every probe and keeps the samples; a
 * replica's lag is how long ago the primary first had WAL that the replica has not replayed yet
 * (`pg_last_wal_replay_lsn()`): the time of the oldest sample past the replica's position. A replica that has
 * replayed everything the primary had at the last sample has no lag, whether the primary is busy or idle, and a paused
 * or disconnected replica's lag grows as soon as the primary writes (the standby's own
 * `now() - pg_last_xact_replay_timestamp()` grows on an idle primary and reads 0 on a replica whose receiver stopped).
 */

/** A WAL position `X/Y` (two hexadecimal halves) as one number; null for an unknown position. */
export function parseLsn(lsn: string | null | undefined): bigint | null {
  if (!lsn) return null;
  const m = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(lsn.trim());
  if (!m) return null;
  return (BigInt(`0x${m[1]}`) << 32n) + BigInt(`0x${m[2]}`);
}

/** True when a replica that has replayed `replayed` holds everything up to `needed` (a write's WAL position). */
export function hasReplayed(replayed: string | null, needed: string | null): boolean {
  const r = parseLsn(replayed);
  const n = parseLsn(needed);
  if (n === null) return true;
  return r !== null && r >= n;
}

export interface LsnSample {
  at: number;
  lsn: bigint;
}

/** The primary's WAL positions over the last `keepMs`, oldest first. */
export class PrimaryLsnHistory {
  private readonly samples: LsnSample[] = [];

  constructor(private readonly keepMs: number) {}

  add(at: number, lsn: string | null): void {
    const v = parseLsn(lsn);
    if (v === null) return;
    const last = this.samples[this.samples.length - 1];
    // Only the first time a position was seen matters (when that WAL came to exist).
    if (!last || v > last.lsn) this.samples.push({ at, lsn: v });
    // Keep one sample older than the window: it dates everything before the window.
    while (this.samples.length > 2 && this.samples[1].at < at - this.keepMs) this.samples.shift();
  }

  /**
   * Milliseconds since the primary first had WAL the replica has not replayed: 0 when it has replayed every sampled
   * position; null before any sample or without a replay position (not a standby, or nothing replayed yet).
   */
  lagMs(replayed: string | null, now: number): number | null {
    const r = parseLsn(replayed);
    if (r === null || this.samples.length === 0) return null;
    const firstAhead = this.samples.find((s) => s.lsn > r);
    return firstAhead ? Math.max(0, now - firstAhead.at) : 0;
  }
}

export type ReplicaState = 'up' | 'lagging' | 'down';

/** A replica serves reads while it answers, is a standby, and its lag is known and within the bound. */
export function replicaState(p: { answered: boolean; inRecovery: boolean; lagMs: number | null }, maxLagMs: number): ReplicaState {
  if (!p.answered || !p.inRecovery) return 'down';
  if (p.lagMs === null || p.lagMs > maxLagMs) return 'lagging';
  return 'up';
}
