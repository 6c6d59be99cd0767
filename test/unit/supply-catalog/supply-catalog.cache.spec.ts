/**
 * The supplier catalog cache policy (SupplyCatalogService): served for at most CATALOG_TTL_MS, refreshed in the
 * background from CATALOG_REFRESH_AHEAD_MS (one refresh at a time, readers keep the current copy until the new one
 * is complete), never served after its minute (a failure is 502, never the old copy), and prepared without holding
 * the event loop. A fake adapter and a fake clock; no Nest, no HTTP.
 */
import { DomainError } from '../../../src/common/errors/errors';
import { statusOf } from '../../../src/common/errors/error-status.rules';
import {
  CATALOG_REFRESH_AHEAD_MS,
  CATALOG_REFRESH_RETRY_MS,
  CATALOG_TTL_MS,
  CatalogSnapshot,
  runInTurns,
  snapshotSteps,
  SupplyCatalogService,
} from '../../../src/supply-catalog/supply-catalog.service';
import { PartnerError, SupplyProduct } from '../../../src/partners/adapter.types';
import { PartnerRegistry } from '../../../src/partners/registry/partner-registry';

const NS = 'acme-supply';

function product(vendorSku: string, title = `Product ${vendorSku}`): SupplyProduct {
  return { vendorSku, title, packSize: 1, packPriceFen: 100, eachPriceFen: 100, eachPriceDerived: false, stock: 1, barcode: null, spec: null, costFen: null, sites: null };
}

/** A supplier whose GET /catalog answers only when the test says so. */
class FakeSupplier {
  calls = 0;
  private pending: { resolve: (v: { products: SupplyProduct[]; rejected: [] }) => void; reject: (e: unknown) => void }[] = [];
  readonly adapter = {
    namespace: NS,
    vendor: 'acme',
    capabilities: new Set(['catalog']),
    simulated: false,
    getCatalog: () => {
      this.calls += 1;
      return new Promise<{ products: SupplyProduct[]; rejected: [] }>((resolve, reject) => this.pending.push({ resolve, reject }));
    },
    createOrder: () => Promise.reject(new Error('not used')),
    getOrder: () => Promise.reject(new Error('not used')),
  };
  get waiting(): number {
    return this.pending.length;
  }
  answer(products: SupplyProduct[]): void {
    this.pending.shift()!.resolve({ products, rejected: [] });
  }
  fail(reason = 'HTTP 503'): void {
    this.pending.shift()!.reject(new PartnerError('unreachable', NS, reason));
  }
}

const settle = () => new Promise<void>((r) => setImmediate(r));
async function settled<T>(p: Promise<T>): Promise<{ done: boolean; value?: T; error?: unknown }> {
  const state: { done: boolean; value?: T; error?: unknown } = { done: false };
  p.then(
    (value) => Object.assign(state, { done: true, value }),
    (error: unknown) => Object.assign(state, { done: true, error }),
  );
  for (let i = 0; i < 5; i++) await settle();
  return state;
}

describe('supplier catalog cache', () => {
  let now: number;
  let supplier: FakeSupplier;
  let service: SupplyCatalogService;

  beforeEach(() => {
    now = 1_800_000_000_000;
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    supplier = new FakeSupplier();
    const registry = { simulatedSupplier: { namespace: 'sim-supply' }, entry: () => undefined, supply: () => supplier.adapter } as unknown as PartnerRegistry;
    service = new SupplyCatalogService(registry);
  });
  afterEach(() => jest.restoreAllMocks());

  async function loaded(products = [product('A1')]): Promise<CatalogSnapshot> {
    const first = service.snapshot(NS);
    await settle();
    supplier.answer(products);
    return first;
  }

  it('serves the copy without refetching until 80% of the minute', async () => {
    const snap = await loaded();
    now += CATALOG_REFRESH_AHEAD_MS - 1;
    expect(await service.snapshot(NS)).toBe(snap);
    expect(supplier.calls).toBe(1);
    expect(service.refreshing(NS)).toBe(false);
  });

  it('from 80% of the minute, answers from the current copy at once and refreshes once in the background', async () => {
    const old = await loaded([product('A1')]);
    now += CATALOG_REFRESH_AHEAD_MS;
    // Five readers while the refresh is under way: none waits for it, one GET /catalog in all.
    for (let i = 0; i < 5; i++) {
      const r = await settled(service.snapshot(NS));
      expect(r).toMatchObject({ done: true, value: old });
    }
    expect(supplier.calls).toBe(2);
    expect(service.refreshing(NS)).toBe(true);
    const sentAt = now;
    now += 5_000; // the answer takes five seconds
    expect(await service.snapshot(NS)).toBe(old);
    supplier.answer([product('A1'), product('A2')]);
    await settled(Promise.resolve());
    expect(service.refreshing(NS)).toBe(false);
    const fresh = await service.snapshot(NS);
    expect(fresh).not.toBe(old);
    expect(fresh.bySku.has('A2')).toBe(true);
    // Its age counts from the moment GET /catalog was sent.
    expect(fresh.fetchedAt).toBe(sentAt);
  });

  it('keeps a valid copy when a background refresh fails, retries later, and never serves it after its minute', async () => {
    const old = await loaded();
    now += CATALOG_REFRESH_AHEAD_MS;
    expect(await service.snapshot(NS)).toBe(old);
    supplier.fail('maintenance');
    await settled(Promise.resolve());
    // Still within the minute: the copy is served, and no new attempt before the retry delay.
    expect(await service.snapshot(NS)).toBe(old);
    expect(supplier.calls).toBe(2);
    now += CATALOG_REFRESH_RETRY_MS;
    expect(await service.snapshot(NS)).toBe(old);
    expect(supplier.calls).toBe(3);
    supplier.fail('maintenance');
    await settled(Promise.resolve());
    // The minute is over: a read waits for a fetch (not the old copy), and its failure is 502 upstream_unreachable.
    now = old.fetchedAt + CATALOG_TTL_MS;
    const expired = service.snapshot(NS);
    expect((await settled(expired)).done).toBe(false);
    expect(supplier.calls).toBe(4);
    supplier.fail('still down');
    await expect(expired).rejects.toMatchObject({ code: 'upstream_unreachable' });
    expect(statusOf('upstream_unreachable')).toBe(502);
    expect(service.cached(NS)).toBeNull();
  });

  it('an expired read joins the refresh under way, and its failure is 502, not the old copy', async () => {
    const old = await loaded();
    now += CATALOG_REFRESH_AHEAD_MS;
    await service.snapshot(NS); // starts the background refresh
    now = old.fetchedAt + CATALOG_TTL_MS + 1;
    const read = service.snapshot(NS);
    expect(supplier.calls).toBe(2); // joined, not a second fetch
    supplier.fail('HTTP 500');
    const e = await read.then(
      () => null,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(DomainError);
    expect(e).toMatchObject({ code: 'upstream_unreachable' });
    expect(statusOf((e as DomainError).code)).toBe(502);
    expect(service.cached(NS)).toBeNull();
  });

  it('caps maxAgeMs at the minute, and maxAgeMs 0 forces a fetch', async () => {
    const old = await loaded();
    now += CATALOG_TTL_MS;
    const late = service.snapshot(NS, { maxAgeMs: 10 * CATALOG_TTL_MS });
    expect(supplier.calls).toBe(2);
    supplier.answer([product('B1')]);
    expect(await late).not.toBe(old);
    const forced = service.snapshot(NS, { maxAgeMs: 0 });
    expect(supplier.calls).toBe(3);
    supplier.answer([product('C1')]);
    expect((await forced).bySku.has('C1')).toBe(true);
  });

  it('invalidate() detaches a refresh under way: its result is not installed', async () => {
    await loaded();
    now += CATALOG_REFRESH_AHEAD_MS;
    await service.snapshot(NS);
    service.invalidate(NS);
    supplier.answer([product('OLD')]);
    await settled(Promise.resolve());
    expect(service.cached(NS)).toBeNull();
    const next = service.snapshot(NS);
    supplier.answer([product('NEW')]);
    expect((await next).bySku.has('NEW')).toBe(true);
  });

  it('prepares a large fetched catalog in many turns of the event loop, not in one piece', async () => {
    const products = Array.from({ length: 30_000 }, (_, i) => product(`P${i}`, `brand${i % 20} flavour${i % 97} tea ${i % 9}00ml`));
    let turns = 0;
    let running = true;
    const tick = () => {
      if (!running) return;
      turns += 1;
      setImmediate(tick);
    };
    setImmediate(tick);
    const snap = await runInTurns(snapshotSteps(NS, { products, rejected: [] }, 0), 1);
    running = false;
    expect(snap.products).toHaveLength(30_000);
    expect(snap.index.size).toBe(30_000);
    expect(Object.isFrozen(snap.products[0])).toBe(true);
    expect(snap.products[0]).not.toBe(products[0]);
    expect(turns).toBeGreaterThanOrEqual(5);
  });
});
