import { Module } from '@nestjs/common';
import { SupplyCatalogModule } from '../../supply-catalog/supply-catalog.module';
import { PartnersModule } from '../../partners/partners.module';
import { SkusModule } from '../../skus/skus.module';
import { SupplyResolutionService } from './supply-resolution.service';
import { UnavailableRepository } from '../unavailable/unavailable.repository';

/** Machine good → what it costs to buy (passing over goods a supplier refused): used by plans and by the price floor. */
@Module({
  imports: [SkusModule, SupplyCatalogModule, PartnersModule],
  providers: [SupplyResolutionService, UnavailableRepository],
  exports: [SupplyResolutionService, UnavailableRepository],
})
export class SupplyResolutionModule {}
