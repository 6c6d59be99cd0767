import { Module } from '@nestjs/common';
import { MetricsModule } from '../metrics/metrics.module';
import { JobLockService } from './job-lock.service';
import { JobScheduling } from './job-scheduling';

/** Multi-instance coordination: what scheduled jobs (ExclusiveIntervalJob) need, the timer and the per-tick lock. */
@Module({
  imports: [MetricsModule],
  providers: [JobLockService, JobScheduling],
  exports: [JobLockService, JobScheduling],
})
export class CoordinationModule {}
