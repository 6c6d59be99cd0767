import { Module } from '@nestjs/common';
import { LiveInventoryService } from './inventory.service';
import { SlotsRepository } from './slots.repository';

/** Live machine reads and the writes of the synced slot copy. */
@Module({
  providers: [LiveInventoryService, SlotsRepository],
  exports: [LiveInventoryService, SlotsRepository],
})
export class InventoryModule {}
