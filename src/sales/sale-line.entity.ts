import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { bigintNumber } from '../database/bigint-column';
import { SaleOrderEntity } from './sale-order.entity';

/** One line of a sale order. Replaced with its order on revision. `cost_fen` stays internal. */
@Entity('sale_lines')
@Index('idx_sale_lines_slot', ['slotId'])
export class SaleLineEntity {
  @PrimaryColumn('text', { name: 'order_id' })
  orderId: string;

  @PrimaryColumn('integer', { name: 'line_no' })
  lineNo: number;

  // One-sided: the order has no `lines` back reference (its lines are read by SQL), so the two entities do not
  // import each other. The foreign key is declared here alone either way.
  @ManyToOne(() => SaleOrderEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'order_id' })
  order: SaleOrderEntity;

  @Column('text', { name: 'vendor_sku' })
  vendorSku: string;

  @Column('text', { name: 'sku_id' })
  skuId: string;

  /** `<location>-<vendor_sku>`: demand is measured per slot. */
  @Column('text', { name: 'slot_id' })
  slotId: string;

  @Column('text', { nullable: true })
  title: string | null;

  @Column('integer')
  quantity: number;

  @Column('bigint', { name: 'price_fen', transformer: bigintNumber })
  priceFen: number;

  /** Adapter line status word (paid, unpaid, refunded, refund_failed, cancelled). */
  @Column('text')
  status: string;

  @Column('bigint', { name: 'cost_fen', nullable: true, transformer: bigintNumber })
  costFen: number | null;
}
