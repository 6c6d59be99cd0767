import { Module } from '@nestjs/common';
import { InventoryModule } from '../inventory/inventory.module';
import { LocationsController } from './locations.controller';
import { LocationsRepository } from './locations.repository';
import { LocationsService } from './locations.service';

/** The machine roster and the live inventory route. `POST /locations/sync` lives in the sync module. */
@Module({
  imports: [InventoryModule],
  controllers: [LocationsController],
  providers: [LocationsRepository, LocationsService],
  exports: [LocationsRepository],
})
export class LocationsModule {}
