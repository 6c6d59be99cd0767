import { Module } from '@nestjs/common';
import { LocationsModule } from '../locations/locations.module';
import { SalesModule } from '../sales/sales.module';
import { SyncModule } from '../sync/sync.module';
import { OrdersController } from './api/orders.controller';
import { OrdersService } from './orders.service';
import { PartnersModule } from '../partners/partners.module';
import { PurchasesModule } from '../purchases/purchases.module';

/** `GET /orders` and `GET /orders/{id}`: sales from the synced ledger, purchases from PurchaseOrderReader. */
@Module({
  imports: [SalesModule, LocationsModule, SyncModule, PartnersModule, PurchasesModule],
  controllers: [OrdersController],
  providers: [OrdersService],
})
export class OrdersModule {}
