/**
 * AliasService.batch with fake registry, slots and stored aliases: barcode and suggested aliases come from what is
 * prepared ahead (the catalog index of the fetch, the machine directory of the last read), so a lookup does no
 * per-product or per-fleet work: no catalog product title is read for suggestions, and the machine directory is
 * rebuilt only when the synced rows change (a change is seen on the next read).
 */
import { CatalogReads } from '../../../src/supply-catalog/catalog-reads';
import { buildCatalogIndex } from '../../../src/supply-catalog/catalog-index.rules';
import { CatalogSnapshot, SupplyCatalogService } from '../../../src/supply-catalog/supply-catalog.service';
import { SlotReadRepository } from '../../../src/supply-catalog/slot-read.repository';
import { SupplyProduct } from '../../../src/partners/adapter.types';
import { PartnerRegistry } from '../../../src/partners/registry/partner-registry';
import { AliasService } from '../../../src/skus/alias.service';
import { MachineSkuRow } from '../../../src/skus/machine-directory.rules';
import { SkuAliasRepository } from '../../../src/skus/sku-alias.repository';

const FETCHED_AT = Date.UTC(2026, 10, 22, 2, 0, 0);

function catalog(rows: { vendorSku: string; title: string; barcode?: string }[]): { snap: CatalogSnapshot; titleReads: () => number } {
  let reads = 0;
  const products = rows.map((r) => {
    const p: SupplyProduct = { vendorSku: r.vendorSku, title: '', packSize: 1, packPriceFen: 100, eachPriceFen: 100, eachPriceDerived: false, stock: 1, barcode: r.barcode ?? null, spec: null, costFen: null, sites: null };
    Object.defineProperty(p, 'title', {
      enumerable: true,
      get: () => {
        reads += 1;
        return r.title;
      },
    });
    return p;
  });
  const index = buildCatalogIndex(products);
  reads = 0;
  const snap: CatalogSnapshot = { namespace: 'acme-supply', products, bySku: new Map(products.map((p) => [p.vendorSku, p])), index, fetchedAt: FETCHED_AT, rejected: [] };
  return { snap, titleReads: () => reads };
}

describe('AliasService.batch', () => {
  const supplyEntry = { namespace: 'acme-supply', vendor: 'acme', role: 'supply', status: 'live', capabilities: ['catalog'], problem: null };
  const machineEntry = { namespace: 'acme-machine', vendor: 'acme', role: 'machine', status: 'live', capabilities: ['inventory'], problem: null };
  const registry = {
    list: () => [supplyEntry, machineEntry],
    entry: (ns: string) => [supplyEntry, machineEntry].find((e) => e.namespace === ns),
    sharesIdSpace: () => false,
  } as unknown as PartnerRegistry;

  let rows: MachineSkuRow[];
  let rowReads: number;
  let service: AliasService;
  let cat: ReturnType<typeof catalog>;
  const reads = () => new CatalogReads({ snapshot: async () => cat.snap } as unknown as SupplyCatalogService);

  beforeEach(() => {
    rows = [
      { skuId: 'acme-machine:M1', title: 'Coca-Cola can 330ml', barcode: '6901234567892' },
      { skuId: 'acme-machine:M2', title: 'Snickers peanut bar 51g', barcode: null },
      { skuId: 'acme-machine:M3', title: 'Master Kong green tea 500ml', barcode: null },
    ];
    rowReads = 0;
    const slots = {
      machineSkuRows: async () => {
        rowReads += 1;
        return rows.map((r) => ({ ...r }));
      },
    } as unknown as SlotReadRepository;
    const stored = { touching: async () => [] } as unknown as SkuAliasRepository;
    service = new AliasService(registry, slots, stored);
    cat = catalog([
      { vendorSku: 'A100', title: 'Coca-Cola can 330ml', barcode: '6901234567892' },
      { vendorSku: 'A200', title: 'Snickers peanut bar 51g x 24' },
      { vendorSku: 'A300', title: 'Master Kong green tea 500ml' },
      { vendorSku: 'A400', title: 'Nongfu Spring water 550ml' },
    ]);
  });

  it('machine skus: barcode and suggested aliases from the catalog index, without reading any product title', async () => {
    const b = await service.batch(['acme-machine:M1', 'acme-machine:M2', 'acme-machine:M3'], reads());
    expect(b.sets.get('acme-machine:M1')!.aliases).toEqual([
      { skuId: 'acme-supply:A100', source: 'barcode', confirmedAt: FETCHED_AT },
    ]);
    expect(b.sets.get('acme-machine:M2')!.aliases).toEqual([{ skuId: 'acme-supply:A200', source: 'suggested', confirmedAt: null }]);
    expect(b.sets.get('acme-machine:M3')!.aliases).toEqual([{ skuId: 'acme-supply:A300', source: 'suggested', confirmedAt: null }]);
    expect(b.facts.get('acme-machine:M1')).toEqual({ title: 'Coca-Cola can 330ml', barcodes: ['6901234567892'] });
    expect(cat.titleReads()).toBe(0);
  });

  it('supply skus: barcode and suggested aliases from the machine directory', async () => {
    const b = await service.batch(['acme-supply:A100', 'acme-supply:A200', 'acme-supply:A400'], reads());
    expect(b.sets.get('acme-supply:A100')!.aliases).toEqual([{ skuId: 'acme-machine:M1', source: 'barcode', confirmedAt: expect.any(Number) }]);
    expect(b.sets.get('acme-supply:A200')!.aliases).toEqual([{ skuId: 'acme-machine:M2', source: 'suggested', confirmedAt: null }]);
    expect(b.sets.get('acme-supply:A400')!.aliases).toEqual([]);
  });

  it('reads the synced rows on every batch, rebuilds the machine directory only when they changed', async () => {
    await service.batch(['acme-supply:A200'], reads());
    const dir = (service as unknown as { machine: unknown }).machine;
    await service.batch(['acme-supply:A200'], reads());
    expect(rowReads).toBe(2);
    expect((service as unknown as { machine: unknown }).machine).toBe(dir);
    // A sync gives M2 a barcode also carried by A200: the next batch sees it.
    cat = catalog([{ vendorSku: 'A200', title: 'Snickers peanut bar 51g x 24', barcode: '6999999999999' }]);
    rows = rows.map((r) => (r.skuId === 'acme-machine:M2' ? { ...r, barcode: '6999999999999' } : r));
    const b = await service.batch(['acme-supply:A200'], reads());
    expect((service as unknown as { machine: unknown }).machine).not.toBe(dir);
    expect(b.sets.get('acme-supply:A200')!.aliases).toEqual([{ skuId: 'acme-machine:M2', source: 'barcode', confirmedAt: expect.any(Number) }]);
  });
});
