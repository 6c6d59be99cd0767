import { DynamicModule, Global, Module } from '@nestjs/common';
import { AppLogger } from './app-logger';
import { createRootLogger, LoggingOptions } from './logging';

export const ROOT_LOGGER = Symbol('ROOT_LOGGER');

/**
 * One of the three global modules, with the configuration and the database: every module may log, and a logger
 * passed through every module's imports would say nothing.
 */
@Global()
@Module({})
export class LoggingModule {
  static forRoot(opts: LoggingOptions = {}): DynamicModule {
    return {
      module: LoggingModule,
      providers: [
        { provide: ROOT_LOGGER, useFactory: () => createRootLogger(opts) },
        { provide: AppLogger, inject: [ROOT_LOGGER], useFactory: (root: ReturnType<typeof createRootLogger>) => new AppLogger(root) },
      ],
      exports: [ROOT_LOGGER, AppLogger],
    };
  }
}
