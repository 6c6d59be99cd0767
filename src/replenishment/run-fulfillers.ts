import { Injectable } from '@nestjs/common';
import { MachineRestockRunFulfiller } from './machine-restock-run.fulfiller';
import { ReplenishmentRunEntity } from './replenishment-run.entity';
import { RunFulfiller } from './run-fulfiller';
import { SupplierRunFulfiller } from './supplier-run.fulfiller';

/** The fulfiller of a run, by its kind. */
@Injectable()
export class RunFulfillers {
  constructor(
    private readonly supplier: SupplierRunFulfiller,
    private readonly machineRestock: MachineRestockRunFulfiller,
  ) {}

  of(run: ReplenishmentRunEntity): RunFulfiller {
    return run.fulfillerKind === 'machine_restock' ? this.machineRestock : this.supplier;
  }
}
