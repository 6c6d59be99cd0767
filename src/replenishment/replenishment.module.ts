import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CheckoutModule } from '../checkout/checkout.module';
import { ClaimsModule } from '../claims/claims.module';
import { ForecastingModule } from '../forecasting/forecasting.module';
import { RestockModule } from '../restock/restock.module';
import { SkusModule } from '../skus/skus.module';
import { PlanService } from './plan.service';
import { ReplenishmentRunEntity } from './replenishment-run.entity';
import { ReplenishmentController } from './replenishment.controller';
import { RunRecoveryScheduler } from './run-recovery.scheduler';
import { RunsRepository } from './runs.repository';
import { MachineRestockRunFulfiller } from './machine-restock-run.fulfiller';
import { RunDeliveryService } from './run-delivery.service';
import { RunFulfillers } from './run-fulfillers';
import { RunPlacingService } from './run-placing.service';
import { RunRecoveryService } from './run-recovery.service';
import { RunViewService } from './run-view.service';
import { RunsService } from './runs.service';
import { SupplierRunFulfiller } from './supplier-run.fulfiller';
import { SupplyCheckoutRunFulfiller } from './supply-checkout-run.fulfiller';
import { SupplyResolutionService } from './supply-resolution.service';
import { PartnersModule } from '../partners/partners.module';
import { SupplyCatalogModule } from '../catalog/supply-catalog.module';
import { GuardsModule } from '../guards/guards.module';
import { ApprovalsModule } from '../approvals/approvals.module';
import { EventsModule } from '../events/events.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { CoordinationModule } from '../coordination/coordination.module';

/** The plan, runs and forecast scoring (`/ucp/v1/replenishment/*`). */
@Module({
  imports: [TypeOrmModule.forFeature([ReplenishmentRunEntity]), ClaimsModule, ForecastingModule, RestockModule, SkusModule, CheckoutModule,
    PartnersModule, SupplyCatalogModule, GuardsModule, ApprovalsModule, EventsModule, IdempotencyModule, CoordinationModule,
  ],
  controllers: [ReplenishmentController],
  providers: [
    PlanService,
    RunsService,
    RunsRepository,
    RunViewService,
    RunPlacingService,
    RunDeliveryService,
    RunRecoveryService,
    RunFulfillers,
    SupplierRunFulfiller,
    MachineRestockRunFulfiller,
    SupplyCheckoutRunFulfiller,
    RunRecoveryScheduler,
    SupplyResolutionService,
  ],
  exports: [PlanService, RunsService],
})
export class ReplenishmentModule {}
