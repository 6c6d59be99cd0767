import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { bigintNumber } from '../../database/bigint-column';
import type { PackUnit } from '../../partners/adapter.types';

/** One line of a run, as built from the plan. */
export interface RunLine {
  slot_id: string;
  location: string;
  item: { id: string };
  vendor_sku: string;
  title: string;
  unit: PackUnit;
  contains: number;
  quantity: number;
  quantity_each: number;
  ordered_each: number;
  unit_price_fen: number | null;
  cost_estimate_fen: number | null;
  stock: number;
  capacity: number | null;
  target: number;
  /**
   * Supplier runs: the supply sku the slot's good resolved to (SKU registry) and who the order goes to (that
   * supplier for supply_checkout, the simulated supplier standing in for it otherwise). Absent on runs created
   * before resolution existed (the good was then the simulated supplier's own vendor sku).
   */
  supply?: { item: { id: string }; namespace: string; vendor_sku: string; via: string; ordered_from: string };
}

/** A closed line of a run: what arrived (`quantity`), and for lines closed since issue 25 what was ordered and never came. */
export interface RunDelivery {
  slot_id: string;
  quantity: number;
  ordered_each?: number;
  shortfall?: number;
  /** Closed by an operator without a delivery. */
  closed?: boolean;
  /** Units the slot could not take (capacity), kept in the depot; on an arrival, every unit that arrived. */
  to_depot?: number;
  /** Units that arrived beyond what the line ordered and went neither into the slot nor the depot (issue 37). */
  not_booked?: number;
  /** Arrived at the warehouse (the depot), not into the slot: the units reach the slot at a visit. */
  arrived?: boolean;
  stock_before: number | null;
  stock_after: number | null;
  /** When the line was received (+08:00, the service clock): a lead-time sample, placed → received (issue 25). */
  received_at?: string;
}

@Entity('replenishment_runs')
@Index('idx_runs_status_created', ['status', 'createdAt'])
@Index('idx_runs_fulfiller_delivered', ['fulfiller', 'deliveredAt'])
export class ReplenishmentRunEntity {
  @PrimaryColumn('text')
  id: string;

  @Column('text')
  status: string;

  /** Who fills it: the namespace of the fulfilling supplier (today the simulated supplier). */
  @Column('text')
  fulfiller: string;

  @Column('text', { name: 'fulfiller_kind' })
  fulfillerKind: string;

  @Column('boolean', { name: 'cost_is_estimated' })
  costIsEstimated: boolean;

  @Column('bigint', { name: 'total_cost_fen', nullable: true, transformer: bigintNumber })
  totalCostFen: number | null;

  @Column('jsonb')
  lines: RunLine[];

  @Column('text', { name: 'approval_id', nullable: true })
  approvalId: string | null;

  /** The fulfiller's order id once placed. */
  @Column('text', { name: 'supplier_order_id', nullable: true })
  supplierOrderId: string | null;

  @Column('jsonb', { nullable: true })
  delivered: RunDelivery[] | null;

  @Column('text', { nullable: true })
  note: string | null;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;

  /** When the run entered `placing` (database clock, to the millisecond): the lease of an interrupted place. */
  @Column('timestamptz', { name: 'claimed_at', nullable: true })
  claimedAt: Date | null;

  @Column('timestamptz', { name: 'placed_at', nullable: true })
  placedAt: Date | null;

  @Column('timestamptz', { name: 'delivered_at', nullable: true })
  deliveredAt: Date | null;
}
