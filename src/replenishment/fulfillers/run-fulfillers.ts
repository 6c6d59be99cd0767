import { Injectable, OnModuleInit, Type } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { DEFAULT_FULFILLER_KIND, FULFILLER_KINDS, FulfillerKind, runFulfillerKind } from '../fulfiller-kind';
import { MachineRestockRunFulfiller } from './machine-restock-run.fulfiller';
import { ReplenishmentRunEntity } from '../runs/replenishment-run.entity';
import { RunFulfiller } from './run-fulfiller';
import { SupplierRunFulfiller } from './supplier-run.fulfiller';
import { SupplyCheckoutRunFulfiller } from './supply-checkout-run.fulfiller';

/** A fulfiller's class: its kind and traits are static declarations, readable without building it. */
export type RunFulfillerClass = Type<RunFulfiller> & Pick<RunFulfiller, 'kind' | 'traits'>;

/** The registered fulfillers, one per kind (also the module's providers): a new kind is added here, once. */
export const RUN_FULFILLER_PROVIDERS: RunFulfillerClass[] = [SupplierRunFulfiller, MachineRestockRunFulfiller, SupplyCheckoutRunFulfiller];

/** The yes/no traits a run can be looked up by. */
export type FulfillerFlag = 'buysThroughPurchaseOrders' | 'deliveredByPlatform';

/**
 * The one place that maps kinds to fulfillers: the fulfiller of a kind (the default one when none is asked for) or
 * of a stored run, and the kinds having a trait. Plans, runs and their queries ask here instead of naming a kind.
 */
@Injectable()
export class RunFulfillers implements OnModuleInit {
  private readonly byKind = new Map<FulfillerKind, RunFulfiller>();

  constructor(private readonly moduleRef: ModuleRef) {}

  /**
   * The kinds whose fulfiller declares `flag` (from the static declarations, so a query or a service with no room
   * for another dependency can ask). SQL that filters runs by kind takes this list as a parameter.
   */
  static kindsWith(flag: FulfillerFlag): FulfillerKind[] {
    return RUN_FULFILLER_PROVIDERS.filter((c) => c.traits[flag]).map((c) => c.kind);
  }

  /** Whether a stored run's fulfiller declares `flag`; a kind not in the list declares nothing. */
  static runHas(run: { fulfillerKind: string }, flag: FulfillerFlag): boolean {
    return (RunFulfillers.kindsWith(flag) as string[]).includes(run.fulfillerKind);
  }

  onModuleInit(): void {
    for (const cls of RUN_FULFILLER_PROVIDERS) {
      const f = this.moduleRef.get(cls);
      if (this.byKind.has(f.kind)) throw new Error(`two fulfillers registered for ${f.kind}`);
      this.byKind.set(f.kind, f);
    }
    const missing = FULFILLER_KINDS.filter((k) => !this.byKind.has(k));
    if (missing.length) throw new Error(`no fulfiller registered for ${missing.join(', ')}`);
  }

  /** The fulfiller of `kind`; none asked for: the default kind's, decided here once. */
  of(kind: FulfillerKind = DEFAULT_FULFILLER_KIND): RunFulfiller {
    const f = this.byKind.get(kind);
    if (!f) throw new Error(`no fulfiller registered for ${kind}`);
    return f;
  }

  /** The fulfiller of a stored run; an unknown kind is refused (`runFulfillerKind`), never taken for another. */
  ofRun(run: ReplenishmentRunEntity): RunFulfiller {
    return this.of(runFulfillerKind(run));
  }
}
