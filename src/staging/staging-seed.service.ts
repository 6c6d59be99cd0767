import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG } from '../config/app-config';
import type { AppConfig } from '../config/app-config';
import { LocationsRepository } from '../locations/locations.repository';
import { PartnerRegistry, SIMULATED_MACHINE_NAMESPACE } from '../partners/registry/partner-registry';
import { SimulatedMachinePlatform } from '../partners/simulated/simulated-machine-platform';
import { SyncService } from '../sync/sync.service';

/**
 * Out of the box (`npm start`): a staging service whose roster is empty registers the simulated platform's
 * machines and runs one sync in the background, so plans, catalogs and sales have data at once.
 * Off unless SERVICE_STAGING_SEED=on, and never in production.
 */
@Injectable()
export class StagingSeedService implements OnApplicationBootstrap {
  private readonly logger = new Logger(StagingSeedService.name);
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly registry: PartnerRegistry,
    private readonly locations: LocationsRepository,
    private readonly sync: SyncService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.env !== 'staging' || !this.config.stagingSeed) return;
    const adapter = this.registry.entry(SIMULATED_MACHINE_NAMESPACE)?.adapter;
    if (!(adapter instanceof SimulatedMachinePlatform)) return;
    if ((await this.locations.all()).length > 0) return;
    for (const m of adapter.locations()) {
      await this.locations.upsert({ id: m.locationId, namespace: SIMULATED_MACHINE_NAMESPACE, name: m.name, profile: null, amenities: null });
    }
    this.logger.log(`staging: registered ${adapter.locations().length} simulated machines; first sync running`);
    // Not awaited: boot must not wait for the first sync; its outcome is recorded as events.
    this.sync.syncNow(30).then(
      (r) => this.logger.log(`staging: first sync done (${JSON.stringify(r)})`),
      (e: unknown) => this.logger.warn(`staging: first sync failed: ${(e as Error).message}`),
    );
  }
}
