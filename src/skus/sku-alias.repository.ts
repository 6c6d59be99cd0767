import { Injectable } from '@nestjs/common';
import { Tx } from '../database/tx';
import { SkuAliasEntity } from './sku-alias.entity';

/** Stored alias pairs. Queries only: the alias rules live in alias.rules.ts. */
@Injectable()
export class SkuAliasRepository {
  constructor(private readonly tx: Tx) {}

  /** Every stored pair touching one of these ids, from either column. */
  touching(ids: string[]): Promise<Pick<SkuAliasEntity, 'skuA' | 'skuB' | 'source' | 'confirmedAt'>[]> {
    if (ids.length === 0) return Promise.resolve([]);
    // Plain SQL (one array parameter): on every lookup, so the query-builder cost of two IN lists is worth saving.
    return this.tx.manager.query(
      `SELECT sku_a AS "skuA", sku_b AS "skuB", source, confirmed_at AS "confirmedAt" FROM sku_aliases WHERE sku_a = ANY($1::text[]) OR sku_b = ANY($1::text[])`,
      [ids],
    );
  }

  /** Replaces every stored pair touching `id` with `pairs` (call inside a transaction, Tx). */
  async replaceFor(id: string, pairs: { skuA: string; skuB: string; source: string; confirmedAt: Date }[]): Promise<void> {
    const repo = this.tx.manager.getRepository(SkuAliasEntity);
    await repo.delete({ skuA: id });
    await repo.delete({ skuB: id });
    if (pairs.length) {
      await repo
        .createQueryBuilder()
        .insert()
        .values(pairs.map((p) => ({ ...p, writtenBy: id })))
        .orUpdate(['source', 'confirmed_at', 'written_by'], ['sku_a', 'sku_b'])
        .execute();
    }
  }
}
