import { Module } from '@nestjs/common';
import { ClockModule } from '../common/clock.module';
import { ClockController } from './api/clock.controller';
import { ClockService } from './clock.service';

/**
 * The service clock's routes (issue 25): staging only. AppModule imports this module only when SERVICE_ENV is not
 * `production`, so a production service has no such route at all (issue 37): every request there is the unknown
 * route's 404, whatever its body.
 */
@Module({ imports: [ClockModule], controllers: [ClockController], providers: [ClockService] })
export class StagingClockModule {}
