import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A depot: the operator's warehouse or van, where units bought beyond what the slots take are kept. One per
 * deployment today (`DEFAULT_DEPOT_ID`, created by the migration); the stock is keyed by depot so several can come.
 */
@Entity('depots')
export class DepotEntity {
  @PrimaryColumn('text')
  id: string;

  @Column('text')
  name: string;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;
}

/** Units of one good (the slots' sku id) held in one depot. */
@Entity('depot_stock')
@Index('idx_depot_stock_sku', ['skuId'])
export class DepotStockEntity {
  @PrimaryColumn('text', { name: 'depot_id' })
  depotId: string;

  @PrimaryColumn('text', { name: 'sku_id' })
  skuId: string;

  @Column('integer')
  quantity: number;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt: Date;
}

/** The one depot of a deployment (docs/adr/0060-the-depot.md). */
export const DEFAULT_DEPOT_ID = 'depot-main';
