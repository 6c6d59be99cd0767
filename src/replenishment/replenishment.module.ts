import { Module } from '@nestjs/common';
import { ClockModule } from '../common/clock.module';
import { CheckoutModule } from '../checkout/checkout.module';
import { ClaimsModule } from '../claims/claims.module';
import { ForecastingModule } from '../forecasting/forecasting.module';
import { RestockModule } from '../restock/restock.module';
import { SkusModule } from '../skus/skus.module';
import { PlanService } from './plan/plan.service';
import { PlanInputsService } from './plan/plan-inputs.service';
import { CadenceRepository } from './plan/cadence.repository';
import { PlanRecorder } from './plan/plan-recorder.service';
import { ReplenishmentController } from './api/replenishment.controller';
import { RunRecoveryScheduler } from './runs/placement/run-recovery.scheduler';
import { RunsRepository } from './runs/runs.repository';
import { OnOrderRepository } from './plan/on-order.repository';
import { RunRepairService } from './runs/placement/run-repair.service';
import { RunPurchaseOrdersService } from './runs/placement/run-purchase-orders.service';
import { DepotController } from './depot/api/depot.controller';
import { DepotRepository } from './depot/depot.repository';
import { DepotService } from './depot/depot.service';
import { RunDeliveryService } from './runs/delivery/run-delivery.service';
import { RunPlatformDeliveryService } from './runs/delivery/run-platform-delivery.service';
import { RunStockService } from './runs/delivery/run-stock.service';
import { RUN_FULFILLER_PROVIDERS, RunFulfillers } from './fulfillers/run-fulfillers';
import { RunPlacingService } from './runs/placement/run-placing.service';
import { RunPlacementRecorder } from './runs/placement/run-placement-recorder.service';
import { RunRecoveryService } from './runs/placement/run-recovery.service';
import { RunDetailService } from './runs/run-detail.service';
import { RunsService } from './runs/runs.service';
import { RunApprovalsService } from './runs/run-approvals.service';
import { RunOpeningService } from './runs/run-opening.service';
import { RunClaimService } from './runs/placement/run-claim.service';
import { SupplyResolutionModule } from './supply-resolution/supply-resolution.module';
import { PartnersModule } from '../partners/partners.module';
import { SupplyCatalogModule } from '../supply-catalog/supply-catalog.module';
import { GuardsModule } from '../guards/guards.module';
import { ApprovalsModule } from '../approvals/approvals.module';
import { EventsModule } from '../events/events.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { CoordinationModule } from '../coordination/coordination.module';
import { LocationsModule } from '../locations/locations.module';

/** The plan, runs and forecast scoring (`/ucp/v1/replenishment/*`). */
@Module({
  imports: [ClockModule, ClaimsModule, ForecastingModule, RestockModule, SkusModule, CheckoutModule,
    PartnersModule, SupplyCatalogModule, SupplyResolutionModule, GuardsModule, ApprovalsModule, EventsModule, IdempotencyModule, CoordinationModule, LocationsModule,
  ],
  controllers: [ReplenishmentController, DepotController],
  providers: [
    PlanService,
    PlanInputsService,
    CadenceRepository,
    PlanRecorder,
    RunsService,
    RunApprovalsService,
    RunOpeningService,
    RunsRepository,
    OnOrderRepository,
    RunRepairService,
    RunPurchaseOrdersService,
    DepotRepository,
    DepotService,
    RunDetailService,
    RunPlacingService,
    RunClaimService,
    RunPlacementRecorder,
    RunDeliveryService,
    RunPlatformDeliveryService,
    RunStockService,
    RunRecoveryService,
    RunFulfillers,
    ...RUN_FULFILLER_PROVIDERS,
    RunRecoveryScheduler,
  ],
  exports: [PlanService, RunsService, RunDeliveryService, DepotService],
})
export class ReplenishmentModule {}
