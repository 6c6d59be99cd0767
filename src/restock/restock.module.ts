import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CoordinationModule } from '../coordination/coordination.module';
import { LocationEntity } from '../locations/location.entity';
import { RestockFollowUpJob } from './restock-follow-up.job';
import { RestockFollowUpService } from './restock-follow-up.service';
import { RestockOrderEntity } from './restock-order.entity';
import { RestockController } from './restock.controller';
import { RestockRepository } from './restock.repository';
import { RestockService } from './restock.service';
import { PartnersModule } from '../partners/partners.module';
import { GuardsModule } from '../guards/guards.module';
import { EventsModule } from '../events/events.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';

/** Restock requests to machine platforms and the follow-up of binding orders. */
@Module({
  imports: [TypeOrmModule.forFeature([RestockOrderEntity, LocationEntity]), CoordinationModule, PartnersModule, GuardsModule, EventsModule, IdempotencyModule],
  controllers: [RestockController],
  providers: [RestockRepository, RestockService, RestockFollowUpService, RestockFollowUpJob],
  exports: [RestockService, RestockFollowUpService],
})
export class RestockModule {}
