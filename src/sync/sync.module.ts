import { Module } from '@nestjs/common';
import { ClockModule } from '../common/clock.module';
import { CoordinationModule } from '../coordination/coordination.module';
import { InventoryModule } from '../inventory/inventory.module';
import { LocationsModule } from '../locations/locations.module';
import { SalesModule } from '../sales/sales.module';
import { InventorySyncService } from './inventory-sync.service';
import { LedgerSyncService } from './ledger-sync.service';
import { SyncStateRepository } from './sync-state.repository';
import { SyncController } from './api/sync.controller';
import { InventorySyncJob, LedgerSyncJob } from './sync.jobs';
import { SyncService } from './sync.service';
import { SyncNowGate } from './sync-now.gate';
import { PartnersModule } from '../partners/partners.module';
import { EventsModule } from '../events/events.module';
import { PriceAuditModule } from '../price-audit/price-audit.module';

/** `POST /locations/sync` and the scheduled inventory and ledger syncs. */
@Module({
  imports: [ClockModule, CoordinationModule, InventoryModule, LocationsModule, SalesModule, PartnersModule, EventsModule, PriceAuditModule],
  controllers: [SyncController],
  providers: [SyncService, SyncNowGate, InventorySyncService, LedgerSyncService, LedgerSyncJob, InventorySyncJob, SyncStateRepository],
  exports: [SyncService, SyncStateRepository],
})
export class SyncModule {}
