import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SlotEntity } from '../inventory/slot.entity';
import { LocationEntity } from '../locations/location.entity';
import { PartnersModule } from '../partners/partners.module';
import { SlotReadRepository } from './slot-read.repository';
import { SupplyCatalogService } from './supply-catalog.service';

/**
 * Supplier catalog reads and the slot reads behind them: the layer below the SKU registry and the catalog routes
 * (imports go catalog → skus → supply-catalog, never back).
 */
@Module({
  imports: [TypeOrmModule.forFeature([SlotEntity, LocationEntity]), PartnersModule],
  providers: [SupplyCatalogService, SlotReadRepository],
  exports: [SupplyCatalogService, SlotReadRepository],
})
export class SupplyCatalogModule {}
