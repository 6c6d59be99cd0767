import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { currentReader } from './reader-context';

/**
 * Read-your-writes across instances (docs/adr/0069-read-replicas.md). When a client's request that may write
 * (any method but GET, HEAD and OPTIONS) has done its work, and before its answer leaves, the primary's WAL position (`pg_current_wal_lsn()`, at or past the
 * commit) is recorded for the client's credential in `read_your_writes`, a table on the primary that every instance
 * reads. A stale-ok read of that credential goes to a replica only if the replica has replayed that position; the
 * lookup is one primary key read on the primary. The table is UNLOGGED (no WAL, no fsync per write; a crash of the
 * primary empties it, which only matters for a replica that is behind the crash point: such a replica is then lagging
 * and skipped). Off (nothing recorded) without replicas.
 */
export class ReadYourWrites {
  private readonly logger = new Logger('ReadYourWrites');
  /** Readers whose last commit could not be recorded: this instance reads the primary for them until then. */
  private readonly primaryUntil = new Map<string, number>();

  constructor(
    private readonly ds: DataSource,
    readonly enabled: boolean,
    private readonly fallbackMs = 60_000,
  ) {}

  /** After a client's request that may have written: everything it committed is at or before the primary's position now. */
  async record(reader: string): Promise<void> {
    if (!this.enabled) return;
    try {
      await this.ds.query(
      `INSERT INTO read_your_writes AS w (reader, lsn, written_at) VALUES ($1, pg_current_wal_lsn(), now())
       ON CONFLICT (reader) DO UPDATE SET lsn = GREATEST(w.lsn, EXCLUDED.lsn), written_at = EXCLUDED.written_at`,
      [reader],
      );
    } catch (err) {
      // The write itself committed: its answer is not turned into a failure. This instance reads the primary for the
      // client for a while instead (another instance could still read a replica that is behind: logged).
      this.primaryUntil.set(reader, Date.now() + this.fallbackMs);
      this.logger.warn(`could not record a commit for read-your-writes (${(err as Error).message}); reads of ${reader} go to the primary here for ${this.fallbackMs} ms`);
    }
  }

  /** The WAL position a replica must have replayed before it serves the current client; null: no constraint; 'primary': none will do. */
  async neededLsn(): Promise<string | null | 'primary'> {
    const reader = currentReader();
    if (reader === null) return null;
    const until = this.primaryUntil.get(reader);
    if (until !== undefined && until > Date.now()) return 'primary';
    const rows = (await this.ds.query('SELECT lsn::text AS lsn FROM read_your_writes WHERE reader = $1', [reader])) as { lsn: string }[];
    return rows[0]?.lsn ?? null;
  }
}
