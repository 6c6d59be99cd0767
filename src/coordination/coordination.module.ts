import { Global, Module } from '@nestjs/common';
import { JobLockService } from './job-lock.service';

/** Global: every capability's scheduled jobs take their per-tick lock through JobLockService. */
@Global()
@Module({
  providers: [JobLockService],
  exports: [JobLockService],
})
export class CoordinationModule {}
