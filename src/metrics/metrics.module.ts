import { Module, OnModuleInit, Optional } from '@nestjs/common';
import { ReplicaSet } from '../database/replicas/replica-set';
import { StaleReads } from '../database/replicas/stale-reads';
import { MetricsRepository } from './metrics.repository';
import { MetricsService } from './metrics.service';

/**
 * Prometheus metrics (issue 28). Modules that report (coordination for jobs, partners for HTTP calls, events for
 * delivery lag, claims for the claims held) import this one and call MetricsService; `/metrics` and the request
 * timer are installed by bootstrap (metrics-http.ts), outside the API's router and its token.
 */
@Module({
  providers: [MetricsService, MetricsRepository],
  exports: [MetricsService],
})
export class MetricsModule implements OnModuleInit {
  constructor(
    private readonly metrics: MetricsService,
    private readonly repo: MetricsRepository,
    @Optional() private readonly replicas?: ReplicaSet,
    @Optional() private readonly staleReads?: StaleReads,
  ) {}

  onModuleInit(): void {
    this.metrics.useSources({
      approvalsPending: () => this.repo.approvalsPending(),
      pool: () => this.repo.pool(),
      replicas: () => this.replicas?.status() ?? [],
    });
    this.staleReads?.onRead((route) => this.metrics.observeRead(route));
  }
}
