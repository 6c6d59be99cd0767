import { Injectable, Logger } from '@nestjs/common';
import { partnerFailure } from '../partners/partner-failure';
import { RejectedRecord, SupplyAdapter, SupplyProduct } from '../partners/adapter.types';
import { PartnerRegistry } from '../partners/registry/partner-registry';
import { CatalogIndex, catalogIndexSteps } from './catalog-index.rules';
import { saleUnitFor, saleUnits, SaleUnit } from './variant.rules';

/** One fetched supplier catalog with its search structures. Products are frozen: never mutate them. */
export interface CatalogSnapshot {
  namespace: string;
  products: readonly SupplyProduct[];
  bySku: ReadonlyMap<string, SupplyProduct>;
  index: CatalogIndex;
  /** Epoch ms at which its GET /catalog was sent (its age counts from then). */
  fetchedAt: number;
  /** Records the adapter refused (bad amount, missing field): shown as warnings by the catalog routes. */
  rejected: readonly RejectedRecord[];
}

export interface ReadOptions {
  /**
   * Maximum age of the cached copy in ms (default and upper bound CATALOG_TTL_MS). Pass 0 to force a fresh read, e.g.
   * right before pricing a purchase that will be placed.
   */
  maxAgeMs?: number;
}

/** How long a fetched catalog may be served from memory. Never longer: an expired copy is never served. */
export const CATALOG_TTL_MS = 60_000;
/** Age from which a read also starts a background refresh (80% of the TTL), so readers rarely wait for a fetch. */
export const CATALOG_REFRESH_AHEAD_MS = 48_000;
/** After a failed background refresh, the next background attempt waits this long (the copy is still valid). */
export const CATALOG_REFRESH_RETRY_MS = 3_000;
/**
 * Preparing a fetched catalog (copy, index) runs in steps of a few hundred products and gives the event loop back
 * whenever PREPARE_BUDGET_MS of work has been done in one turn: a request waits about that long per turn for it,
 * and an idle process still prepares the catalog at nearly full speed.
 */
export const PREPARE_BUDGET_MS = 1;
const PREPARE_STEP = 500;

/**
 * Supplier catalogs, read through the adapter contract (GET /catalog) and cached in memory per namespace.
 *
 * Cache policy (decided here; the spec is silent):
 * - A catalog is fetched on first use and served from memory for at most CATALOG_TTL_MS (one minute) counted from
 *   the moment its GET /catalog was sent, so searches and lookups on a 100,000-product catalog do not refetch it;
 *   the search index (and what name similarity needs) is built once per fetch.
 * - Refresh ahead: a read of a copy older than CATALOG_REFRESH_AHEAD_MS (80% of the TTL) answers from that copy at
 *   once and starts a background refresh. One refresh per namespace at a time (concurrent readers share it); readers
 *   keep the current copy until the new one is complete, then it replaces the old one in one step. A catalog read
 *   steadily is therefore refreshed every ~48 s and no request waits for the fetch; a catalog nobody read during the
 *   last 20% of its minute is fetched by the next read, which waits for it (as on first use).
 * - The fetched catalog is prepared without holding the event loop: products are copied and indexed in steps
 *   (snapshotSteps, catalogIndexSteps) and the event loop is given back every PREPARE_BUDGET_MS of work (runInTurns),
 *   so requests keep being answered during a refresh. (The JSON parse and contract validation of the answer happen
 *   in the partner client, in one piece: about 0.1-0.2 s for 100,000 products, once per refresh.)
 * - No stale-while-error: a copy is never served after its minute, whatever happened to the refresh. A failed
 *   background refresh keeps the still-valid copy (logged, retried by a later read after
 *   CATALOG_REFRESH_RETRY_MS); once the copy has expired, a read waits for a fetch and a failure surfaces as 502
 *   `upstream_unreachable` (never an empty list, never the old copy). A change at the supplier is therefore visible
 *   within a minute, and at once to callers passing `maxAgeMs: 0`.
 * - Failures are not cached: the next read tries the supplier again (GET /catalog is a read, safe to repeat).
 * - While a refresh runs, the old and the new copy are both in memory (about twice a catalog's footprint, ~1 s).
 * - invalidate() forgets the copy and detaches any refresh under way (its result is not installed).
 */
@Injectable()
export class SupplyCatalogService {
  private readonly logger = new Logger(SupplyCatalogService.name);
  private readonly cache = new Map<string, CatalogSnapshot>();
  private readonly inflight = new Map<string, Promise<CatalogSnapshot>>();
  /** Bumped by invalidate(): a fetch started under an older generation does not install its result. */
  private readonly generation = new Map<string, number>();
  private readonly backgroundFailedAt = new Map<string, number>();

  constructor(private readonly registry: PartnerRegistry) {}

  /** Every product of a supplier catalog. Throws 400 namespace_unsupported / namespace_mismatch, 502 upstream_unreachable. */
  async products(namespace: string, opts: ReadOptions = {}): Promise<SupplyProduct[]> {
    return (await this.snapshot(namespace, opts)).products as SupplyProduct[];
  }

  /** One product by its vendor sku, or null when the supplier does not carry it (today). */
  async product(namespace: string, vendorSku: string, opts: ReadOptions = {}): Promise<SupplyProduct | null> {
    return (await this.snapshot(namespace, opts)).bySku.get(vendorSku) ?? null;
  }

  /** The sale units of a product (EA always; BX with contains, increment, price, price_derived). */
  saleUnits(product: SupplyProduct): SaleUnit[] {
    return saleUnits(product);
  }

  /** The sale unit an order line names (`EA` when none), or null when the product is not sold in that unit. */
  saleUnit(product: SupplyProduct, unit?: string): SaleUnit | null {
    return saleUnitFor(product, unit);
  }

  /** The cached-or-fetched catalog with its index (see the cache policy above). */
  async snapshot(namespace: string, opts: ReadOptions = {}): Promise<CatalogSnapshot> {
    const adapter = this.adapterFor(namespace);
    const maxAge = Math.min(opts.maxAgeMs ?? CATALOG_TTL_MS, CATALOG_TTL_MS);
    const cached = this.cache.get(namespace);
    if (cached) {
      const age = Date.now() - cached.fetchedAt;
      if (age < maxAge) {
        if (age >= CATALOG_REFRESH_AHEAD_MS) this.refreshAhead(namespace, adapter);
        return cached;
      }
      if (age >= CATALOG_TTL_MS) this.cache.delete(namespace); // expired: never served again
    }
    return this.shared(namespace, adapter);
  }

  /** The cached copy only, without any fetch (null when none or expired). */
  cached(namespace: string): CatalogSnapshot | null {
    const c = this.cache.get(namespace);
    return c && Date.now() - c.fetchedAt < CATALOG_TTL_MS ? c : null;
  }

  /** True while a fetch of this catalog is under way (a first read, or a refresh). */
  refreshing(namespace: string): boolean {
    return this.inflight.has(namespace);
  }

  /** Forget a cached catalog (the next read refetches it); a fetch under way is detached and not installed. */
  invalidate(namespace?: string): void {
    const names = namespace === undefined ? new Set([...this.cache.keys(), ...this.inflight.keys()]) : [namespace];
    for (const ns of names) {
      this.generation.set(ns, (this.generation.get(ns) ?? 0) + 1);
      this.cache.delete(ns);
      this.inflight.delete(ns);
      this.backgroundFailedAt.delete(ns);
    }
  }

  private adapterFor(namespace: string): SupplyAdapter {
    // The simulated supplier is the replenishment fulfiller in every environment (docs/contract/).
    if (namespace === this.registry.simulatedSupplier.namespace && !this.registry.entry(namespace)) {
      return this.registry.simulatedSupplier;
    }
    return this.registry.supply(namespace, 'catalog');
  }

  /** Starts a background refresh unless one is under way or the last one failed less than the retry delay ago. */
  private refreshAhead(namespace: string, adapter: SupplyAdapter): void {
    if (this.inflight.has(namespace)) return;
    const failedAt = this.backgroundFailedAt.get(namespace);
    if (failedAt !== undefined && Date.now() - failedAt < CATALOG_REFRESH_RETRY_MS) return;
    this.shared(namespace, adapter).catch((e: unknown) => {
      this.backgroundFailedAt.set(namespace, Date.now());
      this.logger.warn(`${namespace}: background catalog refresh failed (the current copy is served until it expires): ${e instanceof Error ? e.message : String(e)}`);
    });
  }

  /** The fetch under way for this namespace, or a new one (one at a time per namespace). */
  private shared(namespace: string, adapter: SupplyAdapter): Promise<CatalogSnapshot> {
    const running = this.inflight.get(namespace);
    if (running) return running;
    const p: Promise<CatalogSnapshot> = this.fetch(namespace, adapter).finally(() => {
      if (this.inflight.get(namespace) === p) this.inflight.delete(namespace);
    });
    this.inflight.set(namespace, p);
    return p;
  }

  private async fetch(namespace: string, adapter: SupplyAdapter): Promise<CatalogSnapshot> {
    const generation = this.generation.get(namespace) ?? 0;
    const sentAt = Date.now();
    let answer: Awaited<ReturnType<SupplyAdapter['getCatalog']>>;
    try {
      answer = await adapter.getCatalog();
    } catch (e) {
      // Any failure of a catalog read is 502 upstream_unreachable (a read never says `supplier_rejected`).
      throw partnerFailure(e, { who: `the catalog of ${namespace}` });
    }
    const snap = await runInTurns(snapshotSteps(namespace, answer, sentAt));
    if ((this.generation.get(namespace) ?? 0) === generation) {
      this.cache.set(namespace, snap);
      this.backgroundFailedAt.delete(namespace);
    }
    if (answer.rejected.length) this.logger.warn(`${namespace}: ${answer.rejected.length} catalog records refused as non-conforming`);
    return snap;
  }
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Runs `steps` to its end, yielding to the event loop whenever `budgetMs` of work was done in the current turn. */
export async function runInTurns<T>(steps: Generator<void, T, void>, budgetMs = PREPARE_BUDGET_MS): Promise<T> {
  let turnStart = performance.now();
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    if (performance.now() - turnStart >= budgetMs) {
      await nextTurn();
      turnStart = performance.now();
    }
  }
}

/**
 * The snapshot of a fetched catalog, in steps: frozen copies of the products (never shared with the adapter), the
 * first product per vendor sku, and the index (catalogIndexSteps). A 100,000-product catalog is a few hundred ms
 * of CPU in total, which runInTurns spreads over many turns of the event loop.
 */
export function* snapshotSteps(
  namespace: string,
  answer: { products: SupplyProduct[]; rejected: RejectedRecord[] },
  fetchedAt: number,
): Generator<void, CatalogSnapshot, void> {
  const source = answer.products;
  const products: SupplyProduct[] = [];
  const bySku = new Map<string, SupplyProduct>();
  for (let i = 0; i < source.length; i++) {
    if (i > 0 && i % PREPARE_STEP === 0) yield;
    const p = Object.freeze({ ...source[i] });
    products.push(p);
    if (!bySku.has(p.vendorSku)) bySku.set(p.vendorSku, p);
  }
  const index = yield* catalogIndexSteps(products, PREPARE_STEP);
  return { namespace, products, bySku, index, fetchedAt, rejected: answer.rejected };
}
