import { Module } from '@nestjs/common';
import { RateLimiter } from './rate-limiter.service';

/**
 * The rate limiter (issue 26). Its guard, RateLimitGuard, is registered first among the application's guards
 * (app.module.ts) so it counts a request before authentication refuses it; the event socket counts its failed
 * authentications with the same limiter (the events module imports this one).
 */
@Module({
  providers: [RateLimiter],
  exports: [RateLimiter],
})
export class RateLimitModule {}
