import { Global, Module } from '@nestjs/common';
import { CheckoutModule } from '../checkout/checkout.module';
import { PurchaseOrderReader } from '../orders/purchase-order-reader';
import { PurchaseOrdersService } from './purchase-orders.service';

/** Purchase orders for GET /orders?kind=purchase and GET /orders/{id} (served by the orders controller). */
@Global()
@Module({
  imports: [CheckoutModule],
  providers: [PurchaseOrdersService, { provide: PurchaseOrderReader, useExisting: PurchaseOrdersService }],
  exports: [PurchaseOrdersService, PurchaseOrderReader],
})
export class PurchasesModule {}
