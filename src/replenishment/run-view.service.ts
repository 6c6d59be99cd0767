import { Injectable } from '@nestjs/common';
import { ReplenishmentRunEntity } from './replenishment-run.entity';
import { RunFulfillers } from './run-fulfillers';
import { RunSummary, RunView, toRunSummary, toRunView } from './run.view';

/** The run's view, with what its fulfiller adds (a machine-restock run's restock orders, a supply-checkout run's purchase orders). */
@Injectable()
export class RunViewService {
  constructor(private readonly fulfillers: RunFulfillers) {}

  async view(run: ReplenishmentRunEntity): Promise<RunView> {
    const f = this.fulfillers.ofRun(run);
    return toRunView(run, f.traits.manyNamespaces, await f.viewExtras(run));
  }

  summary(run: ReplenishmentRunEntity): RunSummary {
    return toRunSummary(run, this.fulfillers.ofRun(run).traits.manyNamespaces);
  }
}
