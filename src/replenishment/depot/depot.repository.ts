import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { Tx } from '../../database/tx';
import { DepotEntity, DepotStockEntity } from './depot.entity';

/** One good held in a depot, with a title from a slot that sells it. */
export interface DepotStockRow {
  skuId: string;
  title: string | null;
  quantity: number;
  updatedAt: Date;
}

/** Depots and their stock per good. Queries only. */
@Injectable()
export class DepotRepository {
  constructor(private readonly tx: Tx) {}

  depot(id: string): Promise<DepotEntity | null> {
    return this.tx.manager.getRepository(DepotEntity).findOne({ where: { id } });
  }

  /** What the depot holds (quantities above 0), by good; `skuIds` limits it. */
  async stock(depotId: string, skuIds?: string[]): Promise<DepotStockRow[]> {
    const rows = (await this.tx.manager.query(
      `SELECT d.sku_id, d.quantity, d.updated_at, (SELECT s.title FROM slots s WHERE s.sku_id = d.sku_id ORDER BY s.id LIMIT 1) AS title
       FROM depot_stock d
       WHERE d.depot_id = $1 AND d.quantity > 0 AND ($2::text[] IS NULL OR d.sku_id = ANY($2::text[]))
       ORDER BY d.sku_id`,
      [depotId, skuIds ?? null],
    )) as { sku_id: string; quantity: number; updated_at: Date; title: string | null }[];
    return rows.map((r) => ({ skuId: r.sku_id, title: r.title, quantity: Number(r.quantity), updatedAt: new Date(r.updated_at) }));
  }

  /** One page of what the depot holds (quantities above 0), by good after `after` (keyset on sku id); `limit` rows at most. */
  async stockPage(depotId: string, after: string | null, limit: number): Promise<DepotStockRow[]> {
    const rows = (await this.tx.manager.query(
      `SELECT d.sku_id, d.quantity, d.updated_at, (SELECT s.title FROM slots s WHERE s.sku_id = d.sku_id ORDER BY s.id LIMIT 1) AS title
       FROM depot_stock d
       WHERE d.depot_id = $1 AND d.quantity > 0 AND ($2::text IS NULL OR d.sku_id > $2::text)
       ORDER BY d.sku_id
       LIMIT $3`,
      [depotId, after, limit],
    )) as { sku_id: string; quantity: number; updated_at: Date; title: string | null }[];
    return rows.map((r) => ({ skuId: r.sku_id, title: r.title, quantity: Number(r.quantity), updatedAt: new Date(r.updated_at) }));
  }

  /** Goods and units the whole depot holds (quantities above 0). */
  async totals(depotId: string): Promise<{ goods: number; units: number }> {
    const [r] = (await this.tx.manager.query(
      `SELECT count(*)::int AS goods, COALESCE(sum(quantity), 0)::bigint AS units FROM depot_stock WHERE depot_id = $1 AND quantity > 0`,
      [depotId],
    )) as { goods: number; units: string }[];
    return { goods: Number(r.goods), units: Number(r.units) };
  }

  /** Of these sku ids, the goods the service knows: a synced slot sells it, or the depot has a row of it. */
  async knownGoods(depotId: string, skuIds: string[]): Promise<Set<string>> {
    if (skuIds.length === 0) return new Set();
    const rows = (await this.tx.manager.query(
      `SELECT k.id FROM unnest($2::text[]) AS k(id)
       WHERE EXISTS (SELECT 1 FROM slots s WHERE s.sku_id = k.id)
          OR EXISTS (SELECT 1 FROM depot_stock d WHERE d.depot_id = $1 AND d.sku_id = k.id)`,
      [depotId, skuIds],
    )) as { id: string }[];
    return new Set(rows.map((r) => r.id));
  }

  /** The rows of these goods locked for the rest of the transaction (absent goods hold nothing). */
  stockForUpdate(depotId: string, skuIds: string[]): Promise<DepotStockEntity[]> {
    if (skuIds.length === 0) return Promise.resolve([]);
    return this.tx.manager
      .getRepository(DepotStockEntity)
      .createQueryBuilder('d')
      .setLock('pessimistic_write')
      .where({ depotId, skuId: In([...new Set(skuIds)]) })
      .orderBy('d.sku_id')
      .getMany();
  }

  /** Adds units of a good (a delivery's excess); one statement. */
  async add(depotId: string, skuId: string, units: number): Promise<void> {
    await this.tx.manager.query(
      `INSERT INTO depot_stock (depot_id, sku_id, quantity, updated_at) VALUES ($1, $2, $3, now())
       ON CONFLICT (depot_id, sku_id) DO UPDATE SET quantity = depot_stock.quantity + EXCLUDED.quantity, updated_at = now()`,
      [depotId, skuId, units],
    );
  }

  /** Sets what the depot holds of a good (a fill's remainder or a stock count). */
  async set(depotId: string, skuId: string, quantity: number): Promise<void> {
    await this.tx.manager.query(
      `INSERT INTO depot_stock (depot_id, sku_id, quantity, updated_at) VALUES ($1, $2, $3, now())
       ON CONFLICT (depot_id, sku_id) DO UPDATE SET quantity = EXCLUDED.quantity, updated_at = now()`,
      [depotId, skuId, quantity],
    );
  }
}
