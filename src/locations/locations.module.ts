import { Module } from '@nestjs/common';
import { InventoryModule } from '../inventory/inventory.module';
import { LocationsController } from './api/locations.controller';
import { LocationsRepository } from './locations.repository';
import { LocationsService } from './locations.service';
import { PartnersModule } from '../partners/partners.module';
import { EventsModule } from '../events/events.module';

/** The machine roster and the live inventory route. `POST /locations/sync` lives in the sync module. */
@Module({
  imports: [InventoryModule, PartnersModule, EventsModule],
  controllers: [LocationsController],
  providers: [LocationsRepository, LocationsService],
  exports: [LocationsRepository],
})
export class LocationsModule {}
