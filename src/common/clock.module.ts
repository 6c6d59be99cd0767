import { Module } from '@nestjs/common';
import { APP_CONFIG } from '../config/app-config';
import type { AppConfig } from '../config/app-config';
import { Clock, clockOf } from './clock';

/** The service clock the configuration chooses (SERVICE_CLOCK); imported by each module whose services read it. */
@Module({
  providers: [{ provide: Clock, inject: [APP_CONFIG], useFactory: (config: AppConfig) => clockOf(config.adjustableClock) }],
  exports: [Clock],
})
export class ClockModule {}
