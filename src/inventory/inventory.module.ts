import { Module } from '@nestjs/common';
import { LiveInventoryService } from './inventory.service';
import { SlotsRepository } from './slots.repository';
import { PartnersModule } from '../partners/partners.module';
import { EventsModule } from '../events/events.module';

/** Live machine reads and the writes of the synced slot copy. */
@Module({
  imports: [PartnersModule, EventsModule],
  providers: [LiveInventoryService, SlotsRepository],
  exports: [LiveInventoryService, SlotsRepository],
})
export class InventoryModule {}
