import { Injectable } from '@nestjs/common';
import { ExclusiveIntervalJob } from '../coordination/exclusive-interval-job';
import { JobScheduling } from '../coordination/job-scheduling';
import { PurchaseOrdersService } from './purchase-orders.service';

export const PURCHASE_ORDERS_REFRESH_INTERVAL = 'purchase-orders-refresh';
/** The scheduled refresh of open purchase orders. */
export const REFRESH_EVERY_MS = 10 * 60_000;

/** Every 10 minutes, one instance at a time, reads the supplier status of open purchase orders, least recently checked first. */
@Injectable()
export class PurchaseOrdersRefreshJob extends ExclusiveIntervalJob<number> {
  constructor(
    scheduling: JobScheduling,
    private readonly purchases: PurchaseOrdersService,
  ) {
    super(scheduling, PURCHASE_ORDERS_REFRESH_INTERVAL, REFRESH_EVERY_MS);
  }

  protected pass(): Promise<number> {
    return this.purchases.refreshOpen();
  }
}
