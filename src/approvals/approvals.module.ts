import { Module } from '@nestjs/common';
import { ClaimsModule } from '../claims/claims.module';
import { CoordinationModule } from '../coordination/coordination.module';
import { EventsModule } from '../events/events.module';
import { ApprovalRecoveryScheduler } from './approval-recovery.scheduler';
import { ApprovalsController } from './api/approvals.controller';
import { ApprovalsRepository } from './approvals.repository';
import { ApprovalsService } from './approvals.service';

/**
 * Approvals. Capabilities that ask for approval import this module and register their handler
 * (`ApprovalsService.registerHandler`), so this module depends on none of them.
 */
@Module({
  imports: [ClaimsModule, EventsModule, CoordinationModule],
  controllers: [ApprovalsController],
  providers: [ApprovalsRepository, ApprovalsService, ApprovalRecoveryScheduler],
  exports: [ApprovalsService],
})
export class ApprovalsModule {}
