import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_CONFIG } from './app-config';
import type { AppConfig } from './app-config';

/**
 * The configuration, one of the three global modules (with the database and logging): every module reads it, and it
 * is fixed before the app starts. The clock it chooses is common/clock.module.ts, imported where it is read.
 */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: ConfigModule,
      providers: [{ provide: APP_CONFIG, useValue: config }],
      exports: [APP_CONFIG],
    };
  }
}
