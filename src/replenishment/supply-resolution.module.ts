import { Module } from '@nestjs/common';
import { SupplyCatalogModule } from '../catalog/supply-catalog.module';
import { PartnersModule } from '../partners/partners.module';
import { SkusModule } from '../skus/skus.module';
import { SupplyResolutionService } from './supply-resolution.service';

/** Machine good → what it costs to buy: used by plans (replenishment) and by the price floor (pricing). */
@Module({
  imports: [SkusModule, SupplyCatalogModule, PartnersModule],
  providers: [SupplyResolutionService],
  exports: [SupplyResolutionService],
})
export class SupplyResolutionModule {}
