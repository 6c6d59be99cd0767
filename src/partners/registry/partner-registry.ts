import { HttpService } from '@nestjs/axios';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG } from '../../config/app-config';
import type { AppConfig } from '../../config/app-config';
import { Clock } from '../../common/clock';
import { Errors } from '../../common/errors/errors';
import { parseNamespace, Role } from '../../identifiers/identifiers';
import { MachineAdapter, SupplyAdapter } from '../adapter.types';
import { HttpMachineAdapter } from '../http/http-machine.adapter';
import { HttpSupplyAdapter } from '../http/http-supply.adapter';
import { SimulatedMachinePlatform } from '../simulated/simulated-machine-platform';
import { SimulatedSupplier } from '../simulated/simulated-supplier';
import { parseRegistration } from './registration';
import { MetricsService } from '../../metrics/metrics.service';

export const SIMULATED_MACHINE_NAMESPACE = 'sim-machine';
export const SIMULATED_SUPPLY_NAMESPACE = 'sim-supply';

export interface NamespaceEntry {
  namespace: string;
  vendor: string;
  role: Role;
  status: 'live' | 'planned';
  capabilities: string[];
  sharedIdSpace: boolean;
  simulated: boolean;
  /** Why this namespace answers namespace_unsupported although it was registered (malformed entry). */
  problem: string | null;
  adapter: MachineAdapter | SupplyAdapter | null;
}

/**
 * The run-time registry of namespaces and their adapters, built from SERVICE_HTTP_VENDORS (plus the simulated
 * partners in staging). No vendor is hard-coded anywhere else: services ask this registry.
 */
@Injectable()
export class PartnerRegistry {
  private readonly logger = new Logger(PartnerRegistry.name);
  private readonly entries = new Map<string, NamespaceEntry>();
  /** The simulated supplier exists in every environment as the replenishment run fulfiller (docs/contract/). */
  readonly simulatedSupplier: SimulatedSupplier;
  readonly problems: string[] = [];

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    httpService: HttpService,
    metrics: MetricsService,
    clock: Clock,
  ) {
    // The simulated partners live on the service clock: an adjustable clock moves their sales and deliveries too.
    const now = () => clock.nowMs();
    const userAgent = `${config.serviceName}-commerce-service/0.1 (+ucp 2026-08-25)`;
    const http = { timeoutMs: config.partnerTimeoutMs, userAgent, http: httpService, observe: metrics.observePartnerCall.bind(metrics) };
    this.simulatedSupplier = new SimulatedSupplier(SIMULATED_SUPPLY_NAMESPACE, { now });
    if (config.env === 'staging') {
      const machine = new SimulatedMachinePlatform(SIMULATED_MACHINE_NAMESPACE, { now });
      this.add(machine, 'machine', true);
      this.add(this.simulatedSupplier, 'supply', true);
    }
    config.httpVendors.forEach((raw, i) => {
      const r = parseRegistration(raw, i);
      if (!r.ok) {
        this.problems.push(r.reason);
        this.logger.warn(`SERVICE_HTTP_VENDORS ${r.reason}; that namespace answers namespace_unsupported`);
        if (r.namespace && r.role && !this.entries.has(r.namespace)) {
          const ns = parseNamespace(r.namespace)!;
          this.entries.set(r.namespace, {
            namespace: r.namespace,
            vendor: ns.vendor,
            role: r.role,
            status: 'planned',
            capabilities: [],
            sharedIdSpace: false,
            simulated: false,
            problem: r.reason,
            adapter: null,
          });
        }
        return;
      }
      const reg = r.registration;
      if (this.entries.has(reg.namespace) && !this.entries.get(reg.namespace)!.problem) {
        this.problems.push(`entry ${i}: namespace ${reg.namespace} is registered twice; the first entry is kept`);
        return;
      }
      const adapter = reg.role === 'machine' ? new HttpMachineAdapter(reg, http) : new HttpSupplyAdapter(reg, http);
      this.entries.set(reg.namespace, {
        namespace: reg.namespace,
        vendor: reg.vendor,
        role: reg.role,
        status: reg.status,
        capabilities: reg.capabilities,
        sharedIdSpace: reg.sharedIdSpace,
        simulated: false,
        problem: null,
        adapter,
      });
    });
  }

  private add(adapter: MachineAdapter | SupplyAdapter, role: Role, simulated: boolean): void {
    this.entries.set(adapter.namespace, {
      namespace: adapter.namespace,
      vendor: adapter.vendor,
      role,
      status: 'live',
      capabilities: [...adapter.capabilities],
      sharedIdSpace: true,
      simulated,
      problem: null,
      adapter,
    });
  }

  list(): NamespaceEntry[] {
    return [...this.entries.values()];
  }

  entry(namespace: string): NamespaceEntry | undefined {
    return this.entries.get(namespace);
  }

  defaults(): { machine?: string; supply?: string } {
    const out: { machine?: string; supply?: string } = {};
    const pick = (role: Role, configured: string | null) =>
      configured ?? this.list().find((e) => e.role === role && e.status === 'live' && !e.problem)?.namespace;
    const m = pick('machine', this.config.defaultMachineNamespace);
    const s = pick('supply', this.config.defaultSupplyNamespace);
    if (m) out.machine = m;
    if (s) out.supply = s;
    return out;
  }

  /** The usable entry of a namespace, or namespace_unsupported (unregistered, planned, malformed, capability missing). */
  usable(namespace: string, role: Role, capability?: string, path = '$'): NamespaceEntry {
    const e = this.entries.get(namespace);
    if (!e) throw Errors.namespaceUnsupported(namespace, 'not registered', path);
    if (e.role !== role) throw Errors.namespaceMismatch(path, `${namespace} is a ${e.role} namespace; this endpoint serves ${role} ids`);
    if (e.problem) throw Errors.namespaceUnsupported(namespace, `its registration is malformed (${e.problem})`, path);
    if (e.status === 'planned') throw Errors.namespaceUnsupported(namespace, 'it is planned, not live', path);
    if (capability && !e.capabilities.includes(capability)) {
      throw Errors.namespaceUnsupported(namespace, `capability ${capability} is not declared`, path);
    }
    return e;
  }

  machine(namespace: string, capability?: string, path?: string): MachineAdapter {
    return this.usable(namespace, 'machine', capability, path).adapter as MachineAdapter;
  }

  supply(namespace: string, capability?: string, path?: string): SupplyAdapter {
    return this.usable(namespace, 'supply', capability, path).adapter as SupplyAdapter;
  }

  /** The default machine namespace's adapter (syncs follow it), or null when none is usable. */
  defaultMachine(): MachineAdapter | null {
    const ns = this.defaults().machine;
    if (!ns) return null;
    try {
      return this.machine(ns);
    } catch {
      return null;
    }
  }

  /** A vendor registered in both roles with sharedIdSpace declares one product id space: the implied `vendor` alias. */
  sharesIdSpace(vendor: string): boolean {
    const both = this.list().filter((e) => e.vendor === vendor && !e.problem);
    return both.some((e) => e.role === 'machine' && e.sharedIdSpace) && both.some((e) => e.role === 'supply' && e.sharedIdSpace);
  }
}
