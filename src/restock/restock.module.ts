import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CoordinationModule } from '../coordination/coordination.module';
import { LocationEntity } from '../locations/location.entity';
import { RestockFollowUpService } from './restock-follow-up.service';
import { RestockOrderEntity } from './restock-order.entity';
import { RestockController } from './restock.controller';
import { RestockRepository } from './restock.repository';
import { RestockService } from './restock.service';

/** Restock requests to machine platforms and the follow-up of binding orders. */
@Module({
  imports: [TypeOrmModule.forFeature([RestockOrderEntity, LocationEntity]), CoordinationModule],
  controllers: [RestockController],
  providers: [RestockRepository, RestockService, RestockFollowUpService],
  exports: [RestockService, RestockFollowUpService],
})
export class RestockModule {}
