import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../config/app-config';
import type { AppConfig } from '../config/app-config';
import { NamespaceEntry, PartnerRegistry } from '../partners/registry/partner-registry';

export const INTERFACE_VERSION = '2026-09-10 v2';
export const API_PREFIX = '/ucp/v1';

/** The run-time registry as it stands (no vendor hard-coded) and the environment: what discovery.view.ts renders. */
export interface RegistryState {
  entries: NamespaceEntry[];
  defaults: { machine?: string; supply?: string };
  environment: AppConfig['env'];
}

/** Reads what the UCP profile and the namespace registry show. */
@Injectable()
export class DiscoveryService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly registry: PartnerRegistry,
  ) {}

  state(): RegistryState {
    return { entries: this.registry.list(), defaults: this.registry.defaults(), environment: this.config.env };
  }
}
