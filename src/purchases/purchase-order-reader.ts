import type { StoredLine } from '../checkout/checkout-session.entity';
import { UcpMessage } from '../common/envelope/envelope';

/** A purchase order: a completed checkout session with the supplier's last known status (rendered by order.view.ts). */
export interface PurchaseOrder {
  id: string;
  namespace: string;
  lineItems: StoredLine[];
  fulfillment: Record<string, unknown> | null;
  totalFen: number;
  supplierState: string | null;
  supplierRawStatus: string | null;
  logistics: Record<string, unknown>[];
  completedAt: Date;
  supplierCheckedAt: Date | null;
}

/** A page of purchase orders; `cursor` reads the next one (null on the last page). */
export interface PurchaseOrdersPage {
  orders: PurchaseOrder[];
  cursor: string | null;
  messages: UcpMessage[];
}

/**
 * How purchase orders (`kind=purchase`) are read: PurchasesModule provides it (PurchaseOrdersService); the orders
 * service reads sales itself and asks this reader for everything else.
 */
export abstract class PurchaseOrderReader {
  abstract list(q: { cursor?: string; limit: number }): Promise<PurchaseOrdersPage>;
  abstract find(id: string): Promise<{ order: PurchaseOrder; messages: UcpMessage[] } | null>;
}
