import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { ScheduleModule } from '@nestjs/schedule';
import type { DestinationStream } from 'pino';
import { AuthGuard } from './common/auth/auth.guard';
import { UcpExceptionFilter } from './common/errors/exception.filter';
import { RequestKeysGuard } from './common/edge/request-keys.guard';
import { LoggingModule } from './common/logging/logging.module';
import { RateLimitModule } from './common/rate-limit/rate-limit.module';
import { SessionStoreModule } from './common/auth/session-store';
import { RateLimitGuard } from './common/rate-limit/rate-limit.guard';
import { CatalogModule } from './catalog/catalog.module';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { ALL_ENTITIES } from './entities';
import { DiscoveryModule } from './discovery/discovery.module';
import { EventsModule } from './events/events.module';
import { CoordinationModule } from './coordination/coordination.module';
import { HealthModule } from './health/health.module';
import { PartnersModule } from './partners/partners.module';
import { LocationsModule } from './locations/locations.module';
import { OrdersModule } from './orders/orders.module';
import { SyncModule } from './sync/sync.module';
import { GuardsModule } from './guards/guards.module';
import { ApprovalsModule } from './approvals/approvals.module';
import { IdempotencyModule } from './idempotency/idempotency.module';
import { AdminModule } from './admin/admin.module';
import { StagingClockModule } from './admin/clock.module';
import { CheckoutModule } from './checkout/checkout.module';
import { PricingModule } from './pricing/pricing.module';
import { PurchasesModule } from './purchases/purchases.module';
import { ReplenishmentModule } from './replenishment/replenishment.module';
import { RestockModule } from './restock/restock.module';
import { StagingModule } from './staging/staging.module';
import { McpModule } from './mcp/mcp.module';
import { ConsoleModule } from './console/console.module';
import { FleetModule } from './fleet/fleet.module';
import { MetricsModule } from './metrics/metrics.module';
import { VisitsModule } from './visits/visits.module';
import { SpendingModule } from './spending/spending.module';
import { SalesSummaryModule } from './sales-summary/sales-summary.module';
import { OAuthModule } from './oauth/oauth.module';

export interface AppModuleOptions {
  logDestination?: DestinationStream;
  logLevel?: string;
}

/** Capability modules: one line each. */
const CAPABILITY_MODULES = [DiscoveryModule, EventsModule, HealthModule, GuardsModule, ApprovalsModule, IdempotencyModule, AdminModule, CheckoutModule, PricingModule, PurchasesModule, CatalogModule, CoordinationModule, ReplenishmentModule, RestockModule, LocationsModule, SyncModule, OrdersModule, StagingModule, McpModule, ConsoleModule, FleetModule, VisitsModule, SpendingModule, SalesSummaryModule, OAuthModule];

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, opts: AppModuleOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggingModule.forRoot({ level: opts.logLevel, destination: opts.logDestination }),
        DatabaseModule.forRoot(ALL_ENTITIES),
        ScheduleModule.forRoot(),
        RateLimitModule,
        SessionStoreModule,
        PartnersModule,
        MetricsModule,
        ...CAPABILITY_MODULES,
        // Routes that exist only in staging are not mounted in production (issue 37).
        ...(config.env === 'production' ? [] : [StagingClockModule]),
      ],
      providers: [
        // First: a request is counted before authentication refuses it (failed guesses count against their address).
        { provide: APP_GUARD, useClass: RateLimitGuard },
        { provide: APP_GUARD, useClass: AuthGuard },
        // After the auth guard: a request without the token is 401 whatever its query or body.
        { provide: APP_GUARD, useClass: RequestKeysGuard },
        { provide: APP_FILTER, useClass: UcpExceptionFilter },
      ],
    };
  }
}
