import { Module } from '@nestjs/common';
import { ClaimsModule } from '../claims/claims.module';
import { CheckoutRecoveryScheduler } from './completion/checkout-recovery.scheduler';
import { CheckoutController } from './api/checkout.controller';
import { CheckoutRepository } from './checkout.repository';
import { CheckoutClaimService } from './completion/checkout-claim.service';
import { CheckoutCompletionService } from './completion/checkout-completion.service';
import { CheckoutEvaluationService } from './checkout-evaluation.service';
import { CheckoutGatesService } from './checkout-gates.service';
import { CheckoutOutcomesService } from './completion/checkout-outcomes.service';
import { CheckoutPlacementService } from './completion/checkout-placement.service';
import { CheckoutPricingService } from './checkout-pricing.service';
import { CheckoutRecoveryService } from './completion/checkout-recovery.service';
import { CheckoutService } from './checkout.service';
import { PartnersModule } from '../partners/partners.module';
import { SupplyCatalogModule } from '../supply-catalog/supply-catalog.module';
import { GuardsModule } from '../guards/guards.module';
import { ApprovalsModule } from '../approvals/approvals.module';
import { EventsModule } from '../events/events.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { CoordinationModule } from '../coordination/coordination.module';

@Module({
  imports: [ClaimsModule, PartnersModule, SupplyCatalogModule, GuardsModule, ApprovalsModule, EventsModule, IdempotencyModule, CoordinationModule],
  controllers: [CheckoutController],
  providers: [
    CheckoutRepository,
    CheckoutService,
    CheckoutPricingService,
    CheckoutEvaluationService,
    CheckoutGatesService,
    CheckoutClaimService,
    CheckoutPlacementService,
    CheckoutCompletionService,
    CheckoutOutcomesService,
    CheckoutRecoveryService,
    CheckoutRecoveryScheduler,
  ],
  exports: [CheckoutRepository, CheckoutService, CheckoutCompletionService, CheckoutRecoveryService],
})
export class CheckoutModule {}
