import { Module } from '@nestjs/common';
import { ClockModule } from '../common/clock.module';
import { FleetController } from './api/fleet.controller';
import { FleetRepository } from './fleet.repository';
import { FleetService } from './fleet.service';

/** `GET /fleet`: the operator console's overview of every machine (issue 19). */
@Module({
  imports: [ClockModule],
  controllers: [FleetController],
  providers: [FleetRepository, FleetService],
})
export class FleetModule {}
