import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { bigintNumber } from '../database/bigint-column';
import type { PackUnit } from '../partners/adapter.types';

/** A stored checkout line: what was asked plus the price read from the supplier catalog at the last update. */
export interface StoredLine {
  id: string;
  item_id: string;
  quantity: number;
  unit: PackUnit;
  title: string | null;
  /** Price of one unit (EA or BX) in fen; null when the item could not be priced. */
  unit_price_fen: number | null;
  contains: number | null;
  increment: number | null;
  /** Why the line cannot be ordered as is (unknown item, not purchasable...), or null. */
  problem: string | null;
}

/**
 * A checkout session; once completed it is also the purchase order (its id is the order number and the supplier
 * ref). The supplier_* columns are the last read of the supplier's GET /orders/{ref}.
 */
@Entity('checkout_sessions')
@Index('idx_checkout_status_completed', ['status', 'completedAt', 'id'])
@Index('idx_checkout_sessions_run', ['runId'])
export class CheckoutSessionEntity {
  @PrimaryColumn('text')
  id: string;

  @Column('text')
  namespace: string;

  @Column('text')
  status: string;

  @Column('jsonb', { name: 'line_items', default: () => "'[]'" })
  lineItems: StoredLine[];

  @Column('jsonb', { nullable: true })
  fulfillment: Record<string, unknown> | null;

  @Column('bigint', { name: 'total_fen', transformer: bigintNumber, default: 0 })
  totalFen: number;

  /** Messages of the last evaluation (what is missing, why escalated). */
  @Column('jsonb', { default: () => "'[]'" })
  messages: Record<string, unknown>[];

  @Column('jsonb', { name: 'ucp_agent', nullable: true })
  ucpAgent: Record<string, unknown> | null;

  @Column('text', { name: 'supplier_order_id', nullable: true })
  supplierOrderId: string | null;

  @Column('text', { name: 'supplier_state', nullable: true })
  supplierState: string | null;

  @Column('text', { name: 'supplier_raw_status', nullable: true })
  supplierRawStatus: string | null;

  @Column('jsonb', { default: () => "'[]'" })
  logistics: Record<string, unknown>[];

  @Column('timestamptz', { name: 'supplier_checked_at', nullable: true })
  supplierCheckedAt: Date | null;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt: Date;

  /** When the lines were last priced from the supplier catalog (create, update): `expires_at` counts from it. */
  @Column('timestamptz', { name: 'priced_at', default: () => 'now()' })
  pricedAt: Date;

  @Column('timestamptz', { name: 'completed_at', nullable: true })
  completedAt: Date | null;

  /**
   * When the current complete claimed the session (database clock), set with `complete_in_progress`. A claim older
   * than the lease (the money-claims core, `claimLeaseMs`) belongs to a process that died before recording the supplier's
   * answer: recovery reads GET /orders/{ref} to settle it.
   */
  @Column('timestamptz', { name: 'claimed_at', nullable: true })
  claimedAt: Date | null;

  /**
   * The replenishment run that opened this session (a supply-checkout run: one purchase order per supplier), or
   * null. That run's approved `replenishment_run` approval covers the session's budget escalation.
   */
  @Column('text', { name: 'run_id', nullable: true })
  runId: string | null;
}
