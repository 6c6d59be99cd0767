import { Module } from '@nestjs/common';
import { JobLockService } from './job-lock.service';
import { JobScheduling } from './job-scheduling';

/** Multi-instance coordination: what scheduled jobs (ExclusiveIntervalJob) need, the timer and the per-tick lock. */
@Module({
  providers: [JobLockService, JobScheduling],
  exports: [JobLockService, JobScheduling],
})
export class CoordinationModule {}
