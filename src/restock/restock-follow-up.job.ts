import { Injectable } from '@nestjs/common';
import { ExclusiveIntervalJob } from '../coordination/exclusive-interval-job';
import { JobScheduling } from '../coordination/job-scheduling';
import { FollowUpResult, RestockFollowUpService } from './restock-follow-up.service';

export const RESTOCK_FOLLOW_UP_INTERVAL = 'restock.follow-up';
const FOLLOW_UP_MS = 5 * 60_000;

/** Every five minutes, one instance at a time, follows binding restock orders on their platform. */
@Injectable()
export class RestockFollowUpJob extends ExclusiveIntervalJob<FollowUpResult> {
  constructor(
    scheduling: JobScheduling,
    private readonly followUps: RestockFollowUpService,
  ) {
    super(scheduling, RESTOCK_FOLLOW_UP_INTERVAL, FOLLOW_UP_MS);
  }

  protected pass(): Promise<FollowUpResult> {
    return this.followUps.followUp();
  }
}
