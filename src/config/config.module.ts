import { DynamicModule, Global, Module } from '@nestjs/common';
import { Clock, clockOf } from '../common/clock';
import { APP_CONFIG } from './app-config';
import type { AppConfig } from './app-config';

/** The configuration and the service clock it chooses (SERVICE_CLOCK), for every module. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: ConfigModule,
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: Clock, useValue: clockOf(config.adjustableClock) },
      ],
      exports: [APP_CONFIG, Clock],
    };
  }
}
