import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { bigintNumber } from '../database/bigint-column';

/**
 * The synced copy of one product in one machine: slot id `<location>-<vendor_sku>` (docs/contract/).
 * Written by the inventory sync; read by machine catalog search, pricing and replenishment.
 */
@Entity('slots')
@Index('idx_slots_location', ['locationId'])
@Index('idx_slots_sku', ['skuId'])
export class SlotEntity {
  @PrimaryColumn('text')
  id: string;

  @Column('text', { name: 'location_id' })
  locationId: string;

  @Column('text')
  namespace: string;

  @Column('text', { name: 'vendor_sku' })
  vendorSku: string;

  @Column('text', { name: 'sku_id' })
  skuId: string;

  @Column('text')
  title: string;

  @Column('text', { nullable: true })
  barcode: string | null;

  @Column('bigint', { name: 'price_fen', transformer: bigintNumber })
  priceFen: number;

  @Column('integer')
  stock: number;

  /** Null when the platform does not give it. */
  @Column('integer', { nullable: true })
  capacity: number | null;

  /** The partner's own slot label, kept as given. */
  @Column('text', { name: 'partner_slot_id', nullable: true })
  partnerSlotId: string | null;

  /** True while a price change for this slot awaits approval (docs/contract/: inventory.locked). */
  @Column('boolean', { name: 'price_locked', default: false })
  priceLocked: boolean;

  /** The item's reference price of the day (issue 26: the price cap holds against it); null until the service first changes the price. */
  @Column('bigint', { name: 'price_reference_fen', nullable: true, transformer: bigintNumber })
  priceReferenceFen: number | null;

  /** When the reference was set: it holds for its +08:00 day only. */
  @Column('timestamptz', { name: 'price_reference_at', nullable: true })
  priceReferenceAt: Date | null;

  /** `day_start` (the price before the first change of the day) or `approved` (an owner's approved price). */
  @Column('text', { name: 'price_reference_source', nullable: true })
  priceReferenceSource: string | null;

  @Column('timestamptz', { name: 'synced_at', default: () => 'now()' })
  syncedAt: Date;
}
