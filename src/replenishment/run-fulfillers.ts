import { Injectable } from '@nestjs/common';
import { MachineRestockRunFulfiller } from './machine-restock-run.fulfiller';
import { ReplenishmentRunEntity } from './replenishment-run.entity';
import { RunFulfiller } from './run-fulfiller';
import { SupplierRunFulfiller } from './supplier-run.fulfiller';
import { SupplyCheckoutRunFulfiller } from './supply-checkout-run.fulfiller';

/** The fulfiller of a run, by its kind. */
@Injectable()
export class RunFulfillers {
  constructor(
    private readonly supplier: SupplierRunFulfiller,
    private readonly machineRestock: MachineRestockRunFulfiller,
    private readonly supplyCheckout: SupplyCheckoutRunFulfiller,
  ) {}

  of(run: ReplenishmentRunEntity): RunFulfiller {
    if (run.fulfillerKind === 'machine_restock') return this.machineRestock;
    return run.fulfillerKind === 'supply_checkout' ? this.supplyCheckout : this.supplier;
  }
}
