import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A stored alias between two sku ids in different namespaces (spec "Alias"). Aliases are symmetric, so one row holds
 * one unordered pair, written with `sku_a < sku_b` (see alias.rules.ts canonicalPair); reads look at both columns.
 * Only operator-confirmed aliases are stored (`manual`); `barcode`, `vendor` and `suggested` aliases are computed
 * on every read.
 */
@Entity('sku_aliases')
@Index('idx_sku_aliases_b', ['skuB'])
export class SkuAliasEntity {
  @PrimaryColumn('text', { name: 'sku_a' })
  skuA: string;

  @PrimaryColumn('text', { name: 'sku_b' })
  skuB: string;

  @Column('text')
  source: string;

  @Column('timestamptz', { name: 'confirmed_at' })
  confirmedAt: Date;

  /** The sku whose PUT wrote this row (for the audit line; symmetry does not depend on it). */
  @Column('text', { name: 'written_by' })
  writtenBy: string;
}
