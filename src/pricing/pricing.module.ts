import { Module } from '@nestjs/common';
import { PricingController } from './pricing.controller';
import { PricingService } from './pricing.service';
import { PartnersModule } from '../partners/partners.module';
import { GuardsModule } from '../guards/guards.module';
import { ApprovalsModule } from '../approvals/approvals.module';
import { EventsModule } from '../events/events.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';

@Module({
  imports: [PartnersModule, GuardsModule, ApprovalsModule, EventsModule, IdempotencyModule],
  controllers: [PricingController], providers: [PricingService] })
export class PricingModule {}
