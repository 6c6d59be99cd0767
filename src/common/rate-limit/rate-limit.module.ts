import { DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import type { AppConfig } from '../../config/app-config';
import { CredentialThrottlerGuard } from './credential-throttler.guard';

/** SERVICE_RATE_LIMIT requests per SERVICE_RATE_LIMIT_WINDOW_MS per credential; the guard skips all when it is off. */
@Module({})
export class RateLimitModule {
  static forRoot(config: AppConfig): DynamicModule {
    const limit = config.rateLimit ?? { limit: 1, windowMs: 60_000 };
    return {
      module: RateLimitModule,
      imports: [ThrottlerModule.forRoot({ throttlers: [{ name: 'default', ttl: limit.windowMs, limit: limit.limit }] })],
      providers: [{ provide: APP_GUARD, useClass: CredentialThrottlerGuard }],
    };
  }
}
