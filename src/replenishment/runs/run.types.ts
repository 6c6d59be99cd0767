/**
 * A run as the services answer it (domain data, camelCase; pure: no Nest, no TypeORM): the stored run, what the
 * answer needs to know of its fulfiller, and its partner-side orders. `run.view.ts` renders it at the edge.
 */
import type { ReplenishmentRunEntity } from './replenishment-run.entity';

/** A binding restock order of a machine-restock run (one per location), as stored (`not_sent` before the first place). */
export interface RunRestockOrderState {
  location: string;
  namespace: string;
  reference: string;
  /** `not_sent`, `sending`, `failed`, then the platform's `pending`, `in_progress`, `completed`, `cancelled`. */
  status: string;
  externalRef: string | null;
  sentAt: Date | null;
  completedAt: Date | null;
  delivered: { vendorSku: string; quantity: number }[] | null;
}

/** A purchase order of a supply-checkout run: its checkout session (id = purchase-order number = supplier ref). */
export interface RunPurchaseOrderState {
  checkoutId: string;
  supplier: string;
  /** The session's status (`completed` once the supplier took the order), or `not_opened` before the first place. */
  status: string;
  totalFen: number;
  orderId: string | null;
}

/** What a fulfiller holds at its partners for a run (none for a supplier run: its order id is on the run). */
export interface RunPartnerOrders {
  restockOrders?: RunRestockOrderState[];
  purchaseOrders?: RunPurchaseOrderState[];
}

/** A run in a list: the stored run and whether its `fulfiller` column lists several namespaces (the fulfiller's trait). */
export interface RunListed {
  run: ReplenishmentRunEntity;
  manyNamespaces: boolean;
}

/** A run with its partner-side orders. */
export interface RunDetail extends RunListed, RunPartnerOrders {}
