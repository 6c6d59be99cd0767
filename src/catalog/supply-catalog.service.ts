import { Injectable, Logger } from '@nestjs/common';
import { DomainError, Errors } from '../common/errors';
import { PartnerError, RejectedRecord, SupplyAdapter, SupplyProduct } from '../partners/adapter.types';
import { PartnerRegistry } from '../partners/registry/partner-registry';
import { buildCatalogIndex, CatalogIndex } from './catalog-index.rules';
import { renderSupplyVariant, saleUnitFor, saleUnits, SaleUnit, SupplyVariant } from './variant.rules';

/** One fetched supplier catalog with its search structures. Products are frozen: never mutate them. */
export interface CatalogSnapshot {
  namespace: string;
  products: readonly SupplyProduct[];
  bySku: ReadonlyMap<string, SupplyProduct>;
  index: CatalogIndex;
  /** Epoch ms of the fetch. */
  fetchedAt: number;
  /** Records the adapter refused (bad amount, missing field): shown as warnings by the catalog routes. */
  rejected: readonly RejectedRecord[];
}

export interface ReadOptions {
  /**
   * Maximum age of the cached copy in ms (default CATALOG_TTL_MS). Pass 0 to force a fresh read, e.g. right before
   * pricing a purchase that will be placed.
   */
  maxAgeMs?: number;
}

/** How long a fetched catalog is served from memory before the next read refetches it. */
export const CATALOG_TTL_MS = 60_000;

/**
 * Supplier catalogs, read through the adapter contract (GET /catalog) and cached in memory per namespace.
 *
 * Cache policy (decided here; the spec is silent):
 * - A catalog is fetched on first use and served from memory for CATALOG_TTL_MS (one minute), so searches and
 *   lookups on a 100,000-product catalog do not refetch it; the search index is built once per fetch.
 * - After that minute the next read refetches it (concurrent readers share one fetch). A change at the supplier is
 *   therefore visible within a minute, and at once to callers passing `maxAgeMs: 0`.
 * - No stale-while-error: when the refetch fails, the failure surfaces (502 `upstream_unreachable`) and the expired
 *   copy is dropped. A dropped or repriced product is never shown from an old copy after its minute is over.
 * - Failures are not cached: the next read tries the supplier again (GET /catalog is a read, safe to repeat).
 */
@Injectable()
export class SupplyCatalogService {
  private readonly logger = new Logger(SupplyCatalogService.name);
  private readonly cache = new Map<string, CatalogSnapshot>();
  private readonly inflight = new Map<string, Promise<CatalogSnapshot>>();

  constructor(private readonly registry: PartnerRegistry) {}

  /** Every product of a supplier catalog. Throws 400 namespace_unsupported / namespace_mismatch, 502 upstream_unreachable. */
  async products(namespace: string, opts: ReadOptions = {}): Promise<SupplyProduct[]> {
    return (await this.snapshot(namespace, opts)).products as SupplyProduct[];
  }

  /** One product by its vendor sku, or null when the supplier does not carry it (today). */
  async product(namespace: string, vendorSku: string, opts: ReadOptions = {}): Promise<SupplyProduct | null> {
    return (await this.snapshot(namespace, opts)).bySku.get(vendorSku) ?? null;
  }

  /** The catalog variant of a product as the catalog routes show it: each price, sale units, no cost. */
  variant(namespace: string, product: SupplyProduct): SupplyVariant {
    return renderSupplyVariant(namespace, product);
  }

  /** The sale units of a product (EA always; BX with contains, increment, price, price_derived). */
  saleUnits(product: SupplyProduct): SaleUnit[] {
    return saleUnits(product);
  }

  /** The sale unit an order line names (`EA` when none), or null when the product is not sold in that unit. */
  saleUnit(product: SupplyProduct, unit?: string): SaleUnit | null {
    return saleUnitFor(product, unit);
  }

  /** The cached-or-fetched catalog with its index. */
  async snapshot(namespace: string, opts: ReadOptions = {}): Promise<CatalogSnapshot> {
    const adapter = this.adapterFor(namespace);
    const maxAge = opts.maxAgeMs ?? CATALOG_TTL_MS;
    const cached = this.cache.get(namespace);
    if (cached && Date.now() - cached.fetchedAt < maxAge) return cached;
    const running = this.inflight.get(namespace);
    if (running) return running;
    const p = this.fetch(namespace, adapter).finally(() => this.inflight.delete(namespace));
    this.inflight.set(namespace, p);
    return p;
  }

  /** The cached copy only, without any fetch (null when none or expired). */
  cached(namespace: string): CatalogSnapshot | null {
    const c = this.cache.get(namespace);
    return c && Date.now() - c.fetchedAt < CATALOG_TTL_MS ? c : null;
  }

  /** Forget a cached catalog (the next read refetches it). */
  invalidate(namespace?: string): void {
    if (namespace === undefined) this.cache.clear();
    else this.cache.delete(namespace);
  }

  private adapterFor(namespace: string): SupplyAdapter {
    // The simulated supplier is the replenishment fulfiller in every environment (decisions.md section 2).
    if (namespace === this.registry.simulatedSupplier.namespace && !this.registry.entry(namespace)) {
      return this.registry.simulatedSupplier;
    }
    return this.registry.supply(namespace, 'catalog');
  }

  private async fetch(namespace: string, adapter: SupplyAdapter): Promise<CatalogSnapshot> {
    let answer: Awaited<ReturnType<SupplyAdapter['getCatalog']>>;
    try {
      answer = await adapter.getCatalog();
    } catch (e) {
      this.cache.delete(namespace);
      throw toDomainError(namespace, e);
    }
    const products = answer.products.map((p) => Object.freeze({ ...p }));
    const bySku = new Map<string, SupplyProduct>();
    for (const p of products) if (!bySku.has(p.vendorSku)) bySku.set(p.vendorSku, p);
    const snap: CatalogSnapshot = {
      namespace,
      products,
      bySku,
      index: buildCatalogIndex(products),
      fetchedAt: Date.now(),
      rejected: answer.rejected,
    };
    this.cache.set(namespace, snap);
    if (answer.rejected.length) this.logger.warn(`${namespace}: ${answer.rejected.length} catalog records refused as non-conforming`);
    return snap;
  }
}

/** Any failure of a catalog read is 502 upstream_unreachable (a read never says `supplier_rejected`). */
export function toDomainError(namespace: string, e: unknown): DomainError {
  if (e instanceof DomainError) return e;
  if (e instanceof PartnerError) {
    return Errors.upstreamUnreachable(`the catalog of ${namespace}`, `${e.kind}: ${e.reason}`);
  }
  return Errors.upstreamUnreachable(`the catalog of ${namespace}`, e instanceof Error ? e.message : String(e));
}
