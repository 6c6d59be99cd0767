/**
 * Every TypeORM entity of the service. The app (`DatabaseModule.forRoot`), the migration CLI (`data-source.ts`) and the
 * drift check read this one list, so an entity missing here is an entity without a table: add yours in the same commit
 * as its migration. It lives beside app.module, not in database/: the database layer below every capability takes the
 * list as a parameter instead of importing every capability's entities.
 */
import { PriceAuditFlagEntity } from './price-audit/price-audit-flag.entity';
import { EventEntity } from './events/event.entity';
import { DemandCacheEntity, DemandCacheRunEntity } from './forecasting/demand/demand-cache.entity';
import { ForecastEntity } from './forecasting/forecast.entity';
import { SlotStockDayEntity } from './forecasting/demand/slot-stock-day.entity';
import { ReplenishmentRunEntity } from './replenishment/runs/replenishment-run.entity';
import { RestockOrderEntity } from './restock/restock-order.entity';
import { ApprovalEntity } from './approvals/approval.entity';
import { CheckoutSessionEntity } from './checkout/checkout-session.entity';
import { GuardStateEntity } from './guards/guard-state.entity';
import { SpendEntity } from './guards/spend.entity';
import { IdempotencyKeyEntity } from './idempotency/idempotency-key.entity';
import { SlotEntity } from './inventory/slot.entity';
import { SkuAliasEntity } from './skus/sku-alias.entity';
import { LocationEntity } from './locations/location.entity';
import { SaleLineEntity } from './sales/sale-line.entity';
import { SaleOrderEntity } from './sales/sale-order.entity';
import { SyncStateEntity } from './sync/sync-state.entity';
import { DepotEntity, DepotStockEntity } from './replenishment/depot/depot.entity';
import { SupplyUnavailableEntity } from './replenishment/unavailable/supply-unavailable.entity';
import { MachineVisitEntity } from './visits/machine-visit.entity';
import { RouteMachineSettingsEntity } from './visits/route-settings.entity';

export const ALL_ENTITIES: Function[] = [
  EventEntity,
  LocationEntity,
  SlotEntity,
  SaleOrderEntity,
  SaleLineEntity,
  GuardStateEntity,
  SpendEntity,
  ApprovalEntity,
  IdempotencyKeyEntity,
  CheckoutSessionEntity,
  SlotStockDayEntity,
  ForecastEntity,
  ReplenishmentRunEntity,
  RestockOrderEntity,
  DemandCacheEntity,
  DemandCacheRunEntity,
  SkuAliasEntity,
  SyncStateEntity,
  PriceAuditFlagEntity,
  DepotEntity,
  DepotStockEntity,
  SupplyUnavailableEntity,
  RouteMachineSettingsEntity,
  MachineVisitEntity,
];
