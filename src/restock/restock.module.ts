import { Module } from '@nestjs/common';
import { ClockModule } from '../common/clock.module';
import { ClaimsModule } from '../claims/claims.module';
import { CoordinationModule } from '../coordination/coordination.module';
import { RestockDeliveryService } from './restock-delivery.service';
import { RestockFollowUpJob } from './restock-follow-up.job';
import { RestockFollowUpService } from './restock-follow-up.service';
import { RestockRecoveryScheduler } from './restock-recovery.scheduler';
import { RestockRecoveryService } from './restock-recovery.service';
import { RestockController } from './api/restock.controller';
import { RestockRepository } from './restock.repository';
import { RestockService } from './restock.service';
import { PartnersModule } from '../partners/partners.module';
import { GuardsModule } from '../guards/guards.module';
import { EventsModule } from '../events/events.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';

/** Restock requests to machine platforms (on the money-claims core, with their recovery) and the follow-up of binding orders. */
@Module({
  imports: [ClockModule, ClaimsModule, CoordinationModule, PartnersModule, GuardsModule, EventsModule, IdempotencyModule],
  controllers: [RestockController],
  providers: [RestockRepository, RestockService, RestockDeliveryService, RestockRecoveryService, RestockRecoveryScheduler, RestockFollowUpService, RestockFollowUpJob],
  exports: [RestockService, RestockFollowUpService],
})
export class RestockModule {}
