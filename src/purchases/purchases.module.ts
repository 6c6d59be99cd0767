import { Module } from '@nestjs/common';
import { CheckoutModule } from '../checkout/checkout.module';
import { CoordinationModule } from '../coordination/coordination.module';
import { EventsModule } from '../events/events.module';
import { PurchaseOrderReader } from './purchase-order-reader';
import { PartnersModule } from '../partners/partners.module';
import { PurchaseOrdersRefreshJob } from './purchase-orders-refresh.job';
import { PurchaseOrdersService } from './purchase-orders.service';

/** Purchase orders for GET /orders?kind=purchase and GET /orders/{id} (served by the orders controller). */
@Module({
  imports: [CheckoutModule, PartnersModule, EventsModule, CoordinationModule],
  providers: [PurchaseOrdersService, PurchaseOrdersRefreshJob, { provide: PurchaseOrderReader, useExisting: PurchaseOrdersService }],
  exports: [PurchaseOrdersService, PurchaseOrderReader],
})
export class PurchasesModule {}
