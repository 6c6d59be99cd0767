import { Injectable } from '@nestjs/common';
import { Errors } from '../common/errors/errors';
import { JobLockService } from '../coordination/job-lock.service';
import { SyncService, SyncSummary } from './sync.service';

/** The lock of a manual sync across every instance sharing the database (stable: other versions take the same). */
export const SYNC_NOW_LOCK = 'locations.sync-now';

/**
 * One `POST /locations/sync` at a time per deployment (issue 17: 20 at once each read every machine and ledger).
 * In this process a request sent while a sync over the same window runs joins it: one partner pass, one answer for
 * all of them (a failure too). A request for another window, or one finding the sync running on another instance
 * (the job lock: an advisory lock on PostgreSQL, in-process on the embedded database), is 409 `sync_in_progress`:
 * waiting would only queue partner passes, and the running one's answer is not this request's.
 */
@Injectable()
export class SyncNowGate {
  private running: { windowDays: number; answer: Promise<SyncSummary> } | null = null;

  constructor(
    private readonly locks: JobLockService,
    private readonly sync: SyncService,
  ) {}

  syncNow(windowDays: number): Promise<SyncSummary> {
    const current = this.running;
    if (current) {
      if (current.windowDays === windowDays) return current.answer;
      return Promise.reject(inProgress(`a sync over ${current.windowDays} day(s) of sales is running`));
    }
    const answer = this.locks.runExclusive(SYNC_NOW_LOCK, () => this.sync.syncNow(windowDays)).then((o) => {
      if (!o.ran) throw inProgress('a sync is running on another instance of the service');
      return o.result;
    });
    const running = { windowDays, answer };
    this.running = running;
    const done = () => {
      if (this.running === running) this.running = null;
    };
    answer.then(done, done);
    return answer;
  }
}

function inProgress(why: string) {
  return Errors.conflict('sync_in_progress', `${why}; send again once it has ended (it reads every machine and ledger once)`);
}
