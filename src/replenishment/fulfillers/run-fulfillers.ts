import { Injectable, OnModuleInit, Type } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { FULFILLER_KINDS, FulfillerKind, runFulfillerKind } from '../fulfiller-kind';
import { MachineRestockRunFulfiller } from './machine-restock-run.fulfiller';
import { ReplenishmentRunEntity } from '../runs/replenishment-run.entity';
import { RunFulfiller } from './run-fulfiller';
import { SupplierRunFulfiller } from './supplier-run.fulfiller';
import { SupplyCheckoutRunFulfiller } from './supply-checkout-run.fulfiller';

/** The registered fulfillers, one per kind (also the module's providers): a new kind is added here, once. */
export const RUN_FULFILLER_PROVIDERS: Type<RunFulfiller>[] = [SupplierRunFulfiller, MachineRestockRunFulfiller, SupplyCheckoutRunFulfiller];

/** The fulfiller of a kind or of a run. */
@Injectable()
export class RunFulfillers implements OnModuleInit {
  private readonly byKind = new Map<FulfillerKind, RunFulfiller>();

  constructor(private readonly moduleRef: ModuleRef) {}

  onModuleInit(): void {
    for (const cls of RUN_FULFILLER_PROVIDERS) {
      const f = this.moduleRef.get(cls);
      if (this.byKind.has(f.kind)) throw new Error(`two fulfillers registered for ${f.kind}`);
      this.byKind.set(f.kind, f);
    }
    const missing = FULFILLER_KINDS.filter((k) => !this.byKind.has(k));
    if (missing.length) throw new Error(`no fulfiller registered for ${missing.join(', ')}`);
  }

  of(kind: FulfillerKind): RunFulfiller {
    const f = this.byKind.get(kind);
    if (!f) throw new Error(`no fulfiller registered for ${kind}`);
    return f;
  }

  /** The fulfiller of a stored run; an unknown kind is refused (`runFulfillerKind`), never taken for another. */
  ofRun(run: ReplenishmentRunEntity): RunFulfiller {
    return this.of(runFulfillerKind(run));
  }
}
