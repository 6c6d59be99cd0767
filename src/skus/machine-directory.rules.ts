/**
 * The machine side of the alias computation, from the synced copy (`slots`): one entry per machine sku with its
 * title and barcodes, the skus per barcode, and the title word index for name similarity. Pure: no Nest, no I/O.
 *
 * AliasService reads the distinct (sku, title, barcode) rows once per request (one query instead of one per need)
 * and rebuilds this directory only when the rows differ from the previous read, so a sync is seen at once while an
 * unchanged fleet costs a row comparison.
 */
import { buildTitleSet, TitleSet } from '../supply-catalog/title-similarity.rules';

/** One distinct (sku, title, barcode) of the synced slots, ordered by sku, title, barcode. */
export interface MachineSkuRow {
  skuId: string;
  title: string;
  barcode: string | null;
}

export interface MachineFacts {
  readonly title: string;
  readonly barcodes: readonly string[];
}

export interface MachineDirectory {
  rows: readonly MachineSkuRow[];
  /** Title (the first in order) and distinct barcodes per machine sku. */
  facts: ReadonlyMap<string, MachineFacts>;
  /** Machine skus carrying a barcode. */
  byBarcode: ReadonlyMap<string, readonly string[]>;
  /** One title per machine sku, for similarTitles. */
  titles: TitleSet;
}

export function buildMachineDirectory(rows: readonly MachineSkuRow[]): MachineDirectory {
  const facts = new Map<string, { title: string; barcodes: string[] }>();
  const byBarcode = new Map<string, string[]>();
  for (const r of rows) {
    let f = facts.get(r.skuId);
    if (!f) facts.set(r.skuId, (f = { title: r.title, barcodes: [] }));
    if (r.barcode === null || r.barcode === '') continue;
    if (!f.barcodes.includes(r.barcode)) f.barcodes.push(r.barcode);
    const skus = byBarcode.get(r.barcode);
    if (!skus) byBarcode.set(r.barcode, [r.skuId]);
    else if (!skus.includes(r.skuId)) skus.push(r.skuId);
  }
  for (const f of facts.values()) Object.freeze(Object.freeze(f).barcodes);
  for (const skus of byBarcode.values()) Object.freeze(skus);
  const titles = buildTitleSet([...facts].map(([key, f]) => ({ key, title: f.title })));
  return { rows, facts, byBarcode, titles };
}

/** True when `rows` are the rows the directory was built from (same order, same values). */
export function sameRows(dir: MachineDirectory, rows: readonly MachineSkuRow[]): boolean {
  if (dir.rows.length !== rows.length) return false;
  for (let i = 0; i < rows.length; i++) {
    const a = dir.rows[i];
    const b = rows[i];
    if (a.skuId !== b.skuId || a.title !== b.title || a.barcode !== b.barcode) return false;
  }
  return true;
}
