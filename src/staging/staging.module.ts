import { Module } from '@nestjs/common';
import { LocationsModule } from '../locations/locations.module';
import { ReplenishmentModule } from '../replenishment/replenishment.module';
import { SyncModule } from '../sync/sync.module';
import { SimulatedDeliveriesService } from './simulated-deliveries.service';
import { StagingSeedService } from './staging-seed.service';
import { PartnersModule } from '../partners/partners.module';

@Module({ imports: [LocationsModule, SyncModule, PartnersModule, ReplenishmentModule], providers: [StagingSeedService, SimulatedDeliveriesService] })
export class StagingModule {}
