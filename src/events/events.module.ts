import { Inject, Module, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { RateLimitModule } from '../common/rate-limit/rate-limit.module';
import { SessionStoreModule } from '../common/auth/session-store';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DATABASE_TARGET } from '../database/database.module';
import type { DatabaseTarget } from '../database/database.module';
import { EventBus, InProcessEventBus } from './event-bus';
import { EventEntity } from './event.entity';
import { EventsController } from './api/events.controller';
import { EventsGateway } from './api/events.gateway';
import { EventsRepository } from './events.repository';
import { EVENT_PAGES, EventsService } from './events.service';
import type { EventRow } from './events.repository';
import { EventPagesCache } from './event-pages.cache';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { PgNotifyEventBus } from './pg-event-bus';
import { MetricsModule } from '../metrics/metrics.module';
import { MetricsService } from '../metrics/metrics.service';

/** A cached page is read again after this long even without a signal: the bound on what a lost NOTIFY can hide. */
export const EVENT_PAGE_TTL_MS = 1000;
/** Pages kept (one per filter and limit); the oldest goes first. */
export const EVENT_PAGES_KEPT = 64;

/**
 * Decisions recorded as events (EventsService), their routes and the live feed.
 * The bus is LISTEN/NOTIFY on a real PostgreSQL server (every instance sharing the database gets every event) and
 * in-process on the embedded database (NOTIFY there reaches only the sending connection; embedded is one instance).
 */
@Module({
  imports: [TypeOrmModule.forFeature([EventEntity]), MetricsModule, RateLimitModule, SessionStoreModule],
  controllers: [EventsController],
  providers: [
    EventsRepository,
    EventsService,
    EventsGateway,
    {
      provide: EVENT_PAGES,
      inject: [APP_CONFIG, EventBus],
      useFactory: (config: AppConfig, bus: EventBus) =>
        config.eventPageCache ? new EventPagesCache<EventRow[]>(bus, { ttlMs: EVENT_PAGE_TTL_MS, maxPages: EVENT_PAGES_KEPT }) : null,
    },
    {
      provide: EventBus,
      inject: [DATABASE_TARGET, DataSource, EventsRepository, APP_CONFIG],
      useFactory: async (target: DatabaseTarget, ds: DataSource, repo: EventsRepository, config: AppConfig): Promise<EventBus> => {
        if (target.embedded) return new InProcessEventBus();
        const bus = new PgNotifyEventBus({
          // LISTEN needs a session of its own: straight to the primary (DATABASE_LISTEN_URL) when DATABASE_URL names a
          // pooler in transaction mode (issue 38). NOTIFY is sent on a pooled connection: it is a statement like another.
          url: config.replicas.listenUrl ?? target.url,
          notify: async (channel, payload) => {
            await ds.query('SELECT pg_notify($1, $2)', [channel, payload]);
          },
          feed: repo,
        });
        await bus.start();
        return bus;
      },
    },
  ],
  exports: [EventsService],
})
export class EventsModule implements OnModuleInit, OnModuleDestroy {
  constructor(
    @Inject(EventBus) private readonly bus: EventBus,
    private readonly metrics: MetricsService,
  ) {}

  /** The delivery lag of every event this instance's bus hands to its listeners (issue 28). */
  onModuleInit(): void {
    this.bus.subscribe((e) => this.metrics.observeEventDelivered(e.occurredAt));
  }

  /** Runs before the database pool closes (onApplicationShutdown), so no fan-out read outlives it. */
  async onModuleDestroy(): Promise<void> {
    await this.bus.close();
  }
}
