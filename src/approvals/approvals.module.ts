import { Global, Module } from '@nestjs/common';
import { ClaimsModule } from '../claims/claims.module';
import { ApprovalRecoveryScheduler } from './approval-recovery.scheduler';
import { ApprovalsController } from './approvals.controller';
import { ApprovalsRepository } from './approvals.repository';
import { ApprovalsService } from './approvals.service';

@Global()
@Module({
  imports: [ClaimsModule],
  controllers: [ApprovalsController],
  providers: [ApprovalsRepository, ApprovalsService, ApprovalRecoveryScheduler],
  exports: [ApprovalsService],
})
export class ApprovalsModule {}
