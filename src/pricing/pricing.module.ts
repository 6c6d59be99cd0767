import { Module } from '@nestjs/common';
import { ClaimsModule } from '../claims/claims.module';
import { PricingController } from './api/pricing.controller';
import { PricingService } from './pricing.service';
import { PartnersModule } from '../partners/partners.module';
import { GuardsModule } from '../guards/guards.module';
import { ApprovalsModule } from '../approvals/approvals.module';
import { EventsModule } from '../events/events.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { LocationsModule } from '../locations/locations.module';
import { PriceSlotsRepository } from './price-slots.repository';
import { PriceApprovalHandler } from './price-approval.handler';
import { PriceRecordRepository } from './price-record.repository';
import { PriceChangesService } from './price-changes.service';
import { PriceMovesService } from './price-moves.service';
import { PriceResumeService } from './price-resume.service';
import { SupplyResolutionModule } from '../replenishment/supply-resolution/supply-resolution.module';

@Module({
  imports: [ClaimsModule, PartnersModule, GuardsModule, ApprovalsModule, EventsModule, IdempotencyModule, LocationsModule, SupplyResolutionModule],
  controllers: [PricingController],
  providers: [PricingService, PriceMovesService, PriceChangesService, PriceSlotsRepository, PriceApprovalHandler, PriceRecordRepository, PriceResumeService],
})
export class PricingModule {}
