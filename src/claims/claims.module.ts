import { Module, OnModuleInit } from '@nestjs/common';
import { MetricsModule } from '../metrics/metrics.module';
import { MetricsService } from '../metrics/metrics.service';
import { ClaimsHeldRepository } from './claims-held.repository';
import { MoneyClaims } from './money-claims.service';

/**
 * The money-claims core (claim with a lease, call once, record, recover by reading). It reports the claims held to
 * the metrics (the `money_claims` gauge), as other capabilities report theirs.
 */
@Module({
  imports: [MetricsModule],
  providers: [MoneyClaims, ClaimsHeldRepository],
  exports: [MoneyClaims],
})
export class ClaimsModule implements OnModuleInit {
  constructor(
    private readonly claims: MoneyClaims,
    private readonly held: ClaimsHeldRepository,
    private readonly metrics: MetricsService,
  ) {}

  onModuleInit(): void {
    const leaseSecs = this.claims.leaseMs / 1000;
    this.metrics.useSources({ claims: () => this.held.count(leaseSecs) });
  }
}
