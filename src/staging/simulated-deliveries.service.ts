import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { PartnerRegistry, SIMULATED_MACHINE_NAMESPACE } from '../partners/registry/partner-registry';
import { SimulatedMachinePlatform } from '../partners/simulated/simulated-machine-platform';
import { RunDeliveryService } from '../replenishment/runs/delivery/run-delivery.service';
import { DepotService } from '../replenishment/depot/depot.service';

/**
 * Staging closes the loop (issue 25): goods received into slots of the simulated machines go onto the simulated
 * platform's shelves, as the route staff's hands would put them there; the next sync reads them back, minus what
 * sold since. Without it a sync put the platform's old stock back and the plan proposed the same order again. Units
 * filled from the depot (`POST /depot/fill`) go onto the shelves the same way.
 */
@Injectable()
export class SimulatedDeliveriesService implements OnModuleInit {
  private readonly logger = new Logger(SimulatedDeliveriesService.name);
  constructor(
    private readonly registry: PartnerRegistry,
    private readonly deliveries: RunDeliveryService,
    private readonly depot: DepotService,
  ) {}

  onModuleInit(): void {
    const platform = this.registry.entry(SIMULATED_MACHINE_NAMESPACE)?.adapter;
    if (!(platform instanceof SimulatedMachinePlatform)) return;
    this.deliveries.onReceived(async ({ runId, delivered }) => {
      // What the service put into the slot; the rest went to the depot (issue 25 item 2) or was not booked (beyond the
      // order, issue 37), not onto the shelf.
      const put = platform.applyReceived(delivered.map((d) => ({ slot_id: d.slot_id, quantity: d.quantity - (d.to_depot ?? 0) - (d.not_booked ?? 0) })));
      if (put.length) this.logger.log(`run ${runId}: ${put.reduce((n, p) => n + p.quantity, 0)} unit(s) put on the simulated shelves of ${put.length} slot(s)`);
    });
    // A fill from the depot is a delivery too: the staff put those units on the shelves (issue 25).
    this.depot.onFilled(async (filled) => {
      const put = platform.applyReceived(filled.map((f) => ({ slot_id: f.slot_id, quantity: f.quantity })));
      if (put.length) this.logger.log(`depot fill: ${put.reduce((n, p) => n + p.quantity, 0)} unit(s) put on the simulated shelves of ${put.length} slot(s)`);
    });
  }
}
