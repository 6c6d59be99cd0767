import { Injectable } from '@nestjs/common';
import { ReplenishmentRunEntity } from './replenishment-run.entity';
import { RunFulfiller } from '../fulfillers/run-fulfiller';
import { RunFulfillers } from '../fulfillers/run-fulfillers';
import { RunDetail, RunListed } from './run.types';

/** A run with what its fulfiller holds at its partners (a machine-restock run's restock orders, a supply-checkout run's purchase orders). */
@Injectable()
export class RunDetailService {
  constructor(private readonly fulfillers: RunFulfillers) {}

  /** `fulfiller`: the run's, when the caller resolved it already. */
  async detail(run: ReplenishmentRunEntity, fulfiller: RunFulfiller = this.fulfillers.ofRun(run)): Promise<RunDetail> {
    return { run, manyNamespaces: fulfiller.traits.manyNamespaces, ...(await fulfiller.partnerOrders(run)) };
  }

  listed(run: ReplenishmentRunEntity): RunListed {
    return { run, manyNamespaces: this.fulfillers.ofRun(run).traits.manyNamespaces };
  }
}
