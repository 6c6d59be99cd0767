import { Module } from '@nestjs/common';
import { CheckoutModule } from '../checkout/checkout.module';
import { ClaimsModule } from '../claims/claims.module';
import { ForecastingModule } from '../forecasting/forecasting.module';
import { RestockModule } from '../restock/restock.module';
import { SkusModule } from '../skus/skus.module';
import { PlanService } from './plan.service';
import { PlanRecorder } from './plan-recorder.service';
import { ReplenishmentController } from './replenishment.controller';
import { RunRecoveryScheduler } from './run-recovery.scheduler';
import { RunsRepository } from './runs.repository';
import { OnOrderRepository } from './on-order.repository';
import { RunRepairService } from './run-repair.service';
import { DepotController } from './depot/depot.controller';
import { DepotRepository } from './depot/depot.repository';
import { DepotService } from './depot/depot.service';
import { RunDeliveryService } from './run-delivery.service';
import { RUN_FULFILLER_PROVIDERS, RunFulfillers } from './run-fulfillers';
import { RunPlacingService } from './run-placing.service';
import { RunPlacementSteps } from './run-placement-steps.service';
import { RunRecoveryService } from './run-recovery.service';
import { RunViewService } from './run-view.service';
import { RunsService } from './runs.service';
import { SupplyResolutionModule } from './supply-resolution.module';
import { PartnersModule } from '../partners/partners.module';
import { SupplyCatalogModule } from '../catalog/supply-catalog.module';
import { GuardsModule } from '../guards/guards.module';
import { ApprovalsModule } from '../approvals/approvals.module';
import { EventsModule } from '../events/events.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { CoordinationModule } from '../coordination/coordination.module';

/** The plan, runs and forecast scoring (`/ucp/v1/replenishment/*`). */
@Module({
  imports: [ClaimsModule, ForecastingModule, RestockModule, SkusModule, CheckoutModule,
    PartnersModule, SupplyCatalogModule, SupplyResolutionModule, GuardsModule, ApprovalsModule, EventsModule, IdempotencyModule, CoordinationModule,
  ],
  controllers: [ReplenishmentController, DepotController],
  providers: [
    PlanService,
    PlanRecorder,
    RunsService,
    RunsRepository,
    OnOrderRepository,
    RunRepairService,
    DepotRepository,
    DepotService,
    RunViewService,
    RunPlacingService,
    RunPlacementSteps,
    RunDeliveryService,
    RunRecoveryService,
    RunFulfillers,
    ...RUN_FULFILLER_PROVIDERS,
    RunRecoveryScheduler,
  ],
  exports: [PlanService, RunsService, RunDeliveryService, DepotService],
})
export class ReplenishmentModule {}
