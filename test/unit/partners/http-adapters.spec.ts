/** The HTTP adapters against a real HTTP server (the fake partner): failure mapping, headers, no retries. */
import { HttpService } from '@nestjs/axios';
import axios from 'axios';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { PartnerError } from '../../../src/partners/adapter.types';
import { HttpMachineAdapter } from '../../../src/partners/http/http-machine.adapter';
import { HttpSupplyAdapter } from '../../../src/partners/http/http-supply.adapter';
import { PARTNER_AXIOS_CONFIG } from '../../../src/partners/http/partner-http.client';
import { Registration } from '../../../src/partners/registry/registration';
import { FakePartner, startFakePartner } from '../../partners/fake-partner-server';

const TOKEN = 'tok-5ecret-abc123';
/** The timeout test's adapter gives up after this. */
const TIMEOUT_MS = 400;
/** Every other adapter: a loaded CI machine must not turn a partner's answer into a timeout of ours. */
const PATIENT_MS = 5_000;
const USER_AGENT = 'acme-commerce-service/0.1 (+ucp 2026-08-25)';
const T = 1_760_000_000_000;

function reg(role: 'machine' | 'supply', baseUrl: string, capabilities: string[], token = TOKEN): Registration {
  return { namespace: `acme-${role}`, vendor: 'acme', role, baseUrl, token, capabilities, status: 'live', sharedIdSpace: false };
}

async function failure(p: Promise<unknown>): Promise<PartnerError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(PartnerError);
  const pe = e as PartnerError;
  // Whatever went wrong, the token never appears in what the error says.
  expect(pe.message).not.toContain(TOKEN);
  expect(pe.reason).not.toContain(TOKEN);
  expect(JSON.stringify(pe)).not.toContain(TOKEN);
  return pe;
}

const ALL_MACHINE = ['inventory', 'ledger', 'pricing', 'replenishment.recommend', 'replenishment.order'];
const order = { ref: 'po-1', lines: [{ vendorSku: 'P1', quantity: 2, unit: 'pack' as const }], fulfillment: { method: 'shipping' as const } };

describe('HTTP partner adapters', () => {
  let p: FakePartner;
  let machine: HttpMachineAdapter;
  let supply: HttpSupplyAdapter;

  beforeEach(async () => {
    p = await startFakePartner({ token: TOKEN });
    machine = new HttpMachineAdapter(reg('machine', p.url, ALL_MACHINE), { timeoutMs: PATIENT_MS, userAgent: USER_AGENT });
    supply = new HttpSupplyAdapter(reg('supply', p.url, ['catalog', 'orders']), { timeoutMs: PATIENT_MS, userAgent: USER_AGENT });
    p.state.inventory['loc-1'] = [{ vendorSku: 'A1', title: 'Cola', priceFen: 350, stock: 4, barcode: '6901234567892', slotId: 'A01', capacity: 10 }];
    p.state.catalog = [{ vendorSku: 'P1', title: 'Cola x24', packSize: 24, packPriceFen: 4800, eachPriceFen: 200, stock: 9, spec: 'EAN 6901234567892' }];
  });

  afterEach(() => p.close());

  it('is a non-simulated adapter with the registration capabilities', () => {
    expect(machine.simulated).toBe(false);
    expect(machine.namespace).toBe('acme-machine');
    expect(machine.vendor).toBe('acme');
    expect([...supply.capabilities]).toEqual(['catalog', 'orders']);
  });

  it('sends the bearer token in the header, a descriptive User-Agent and Accept: application/json', async () => {
    const r = await machine.getInventory('loc-1');
    expect(r.items).toHaveLength(1);
    const [req] = p.requests;
    expect(req.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(req.headers['user-agent']).toBe(USER_AGENT);
    expect(req.headers.accept).toBe('application/json');
    expect(req.path).toBe('/inventory');
    expect(req.query).toEqual({ locationId: 'loc-1' });
    expect(JSON.stringify(req.query) + req.path).not.toContain(TOKEN);
  });

  it('calls the eight endpoints with the contract bodies', async () => {
    p.state.ledger = [{ orderNo: 'O1', locationId: 'loc-1', totalFen: 350, createdAt: T, takenAt: T, updatedAt: T + 5, lines: [] }];
    const page = await machine.getLedger({ fromMs: T - 1, toMs: T + 10, page: 1, size: 100, by: 'updated' });
    expect(page).toMatchObject({ rejected: [], hasMore: false, records: [{ orderNo: 'O1', takenAt: T }] });
    expect(p.requestsTo('GET /ledger')[0].query).toEqual({ fromMs: String(T - 1), toMs: String(T + 10), page: '1', size: '100', by: 'updated' });

    expect(await machine.setPrices('loc-1', [{ vendorSku: 'A1', priceFen: 400 }])).toEqual({ updated: [{ vendorSku: 'A1', previousFen: 350, priceFen: 400 }], rejected: [] });
    expect(p.requestsTo('POST /prices')[0].body).toEqual({ locationId: 'loc-1', prices: [{ vendorSku: 'A1', priceFen: 400 }] });

    const ack = await machine.sendRestock({ ref: 'rs/1 x', locationId: 'loc-1', binding: true, lines: [{ vendorSku: 'A1', quantity: 3 }] });
    expect(ack).toEqual({ accepted: 1, externalRef: expect.any(String) });
    expect(await machine.getRestock('rs/1 x')).toMatchObject({ ref: 'rs/1 x', status: 'pending', externalRef: ack.externalRef });
    expect(p.requestsTo('GET /restock/:ref')[0].path).toBe('/restock/rs%2F1%20x');

    const cat = await supply.getCatalog();
    expect(cat.products[0]).toMatchObject({ vendorSku: 'P1', barcode: '6901234567892', eachPriceDerived: false });
    expect(await supply.createOrder({ ...order, fulfillment: { method: 'pickup', destination: { siteId: 'w1' } } })).toMatchObject({ ref: 'po-1', state: 'ordered' });
    expect(p.requestsTo('POST /orders')[0].body).toEqual({ ref: 'po-1', lines: [{ vendorSku: 'P1', quantity: 2, unit: 'pack' }], fulfillment: { method: 'pickup', destination: { siteId: 'w1' } } });
    p.state.orders['po-1'].status = { ref: 'po-1', state: 'arrived', rawStatus: 'DONE', logistics: [{ carrier: 'SF', trackingNo: 'SF1', status: 'delivered', updatedAt: T }] };
    expect(await supply.getOrder('po-1')).toMatchObject({ state: 'arrived', logistics: [{ trackingNo: 'SF1' }] });
  });

  it('maps a timeout to unreachable within the configured timeout', async () => {
    p.fault('GET /inventory', { delayMs: 3000 });
    const impatient = new HttpMachineAdapter(reg('machine', p.url, ALL_MACHINE), { timeoutMs: TIMEOUT_MS, userAgent: USER_AGENT });
    const started = Date.now();
    const e = await failure(impatient.getInventory('loc-1'));
    const took = Date.now() - started;
    expect(e.kind).toBe('unreachable');
    expect(e.reason).toContain(`${TIMEOUT_MS} ms`);
    expect(took).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
    expect(took).toBeLessThan(TIMEOUT_MS + 600);
  });

  it('maps 500 and a closed socket to unreachable', async () => {
    p.fault('GET /ledger', { status: 500 });
    const e = await failure(machine.getLedger({ fromMs: 0, toMs: T, page: 1, size: 100, by: 'updated' }));
    expect([e.kind, e.httpStatus]).toEqual(['unreachable', 500]);
    p.fault('GET /catalog', { destroy: true });
    expect((await failure(supply.getCatalog())).kind).toBe('unreachable');
  });

  it('maps a refused connection to unreachable', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((r) => closed.close(() => r()));
    const dead = new HttpSupplyAdapter(reg('supply', url, ['catalog', 'orders']), { timeoutMs: PATIENT_MS, userAgent: USER_AGENT });
    const e = await failure(dead.getCatalog());
    expect(e.kind).toBe('unreachable');
    expect(e.reason).toContain('ECONNREFUSED');
  });

  it('maps 4xx {ok:false, reason} to rejected with the reason, and a 4xx without that body to rejected', async () => {
    p.state.fulfillmentMethods = ['shipping'];
    const e = await failure(supply.createOrder({ ...order, fulfillment: { method: 'pickup' } }));
    expect([e.kind, e.httpStatus]).toEqual(['rejected', 400]);
    expect(e.reason).toContain('fulfillment method pickup is not offered');
    const unknown = await failure(machine.getRestock('nope'));
    expect([unknown.kind, unknown.httpStatus]).toEqual(['rejected', 404]);
    p.fault('GET /catalog', { status: 409, rawBody: '' });
    expect((await failure(supply.getCatalog())).reason).toContain('HTTP 409 without an {ok:false, reason} body');
  });

  it('maps 401 and 403 to unauthorized', async () => {
    const wrong = new HttpMachineAdapter(reg('machine', p.url, ALL_MACHINE, 'other-token'), { timeoutMs: PATIENT_MS, userAgent: USER_AGENT });
    const e = await failure(wrong.getInventory('loc-1'));
    expect([e.kind, e.httpStatus]).toEqual(['unauthorized', 401]);
    p.fault('GET /catalog', { status: 403 });
    expect((await failure(supply.getCatalog())).kind).toBe('unauthorized');
  });

  it('maps non-JSON, a missing top-level array and {ok:false} on 200 to malformed', async () => {
    p.fault('GET /inventory', { rawBody: '<html>gateway</html>' });
    const e = await failure(machine.getInventory('loc-1'));
    expect(e.kind).toBe('malformed');
    expect(e.reason).toContain('not JSON');
    p.fault('GET /inventory', { rawBody: '{"data":[]}' });
    expect((await failure(machine.getInventory('loc-1'))).reason).toContain('"items"');
    p.fault('GET /catalog', { status: 200, body: { ok: false, reason: 'maintenance' } });
    const ok = await failure(supply.getCatalog());
    expect([ok.kind, ok.reason]).toEqual(['malformed', 'GET /catalog: a 2xx answer said {ok:false}: maintenance']);
    p.fault('POST /orders', { rawBody: '{"ref":"po-1"}' });
    expect((await failure(supply.createOrder(order))).kind).toBe('malformed');
  });

  it('refuses a record with a float or string amount and keeps the others on the page', async () => {
    p.state.ledger = [
      { orderNo: 'GOOD', locationId: 'loc-1', totalFen: 350, createdAt: T, lines: [{ vendorSku: 'A1', quantity: 1, priceFen: 350, status: 'paid', costFen: null }] },
      { orderNo: 'FLOAT', locationId: 'loc-1', totalFen: 3.5, createdAt: T + 1, lines: [] },
      { orderNo: 'STRING', locationId: 'loc-1', totalFen: 350, createdAt: T + 2, lines: [{ vendorSku: 'A1', quantity: 1, priceFen: '350', status: 'paid', costFen: null }] },
      { orderNo: 'GOOD2', locationId: 'loc-1', totalFen: 0, createdAt: T + 3, lines: [] },
    ];
    const page = await machine.getLedger({ fromMs: T, toMs: T + 10, page: 1, size: 100, by: 'created' });
    expect(page.records.map((r) => r.orderNo)).toEqual(['GOOD', 'GOOD2']);
    expect(page.rejected).toEqual([
      { index: 1, id: 'FLOAT', reason: 'totalFen is not a non-negative integer fen amount: 3.5' },
      { index: 2, id: 'STRING', reason: 'lines[0].priceFen is not a non-negative integer fen amount: "350"' },
    ]);
    expect(p.requestsTo('GET /ledger')[0].query.by).toBeUndefined();
  });

  it('reads ledger pages until hasMore is false, also when the partner omits hasMore', async () => {
    p.state.ledger = Array.from({ length: 5 }, (_, i) => ({ orderNo: `O${i}`, locationId: 'loc-1', totalFen: 100, createdAt: T + i }));
    p.state.sendHasMore = false;
    const q = { fromMs: T, toMs: T + 10, size: 2, by: 'created' as const };
    const pages = [await machine.getLedger({ ...q, page: 1 }), await machine.getLedger({ ...q, page: 2 }), await machine.getLedger({ ...q, page: 3 })];
    expect(pages.map((x) => [x.records.map((r) => r.orderNo), x.hasMore])).toEqual([
      [['O0', 'O1'], true],
      [['O2', 'O3'], true],
      [['O4'], false],
    ]);
  });

  it('sends POST /orders exactly once even when the partner answers 500 or times out', async () => {
    p.fault('POST /orders', { status: 500 });
    expect((await failure(supply.createOrder(order))).kind).toBe('unreachable');
    expect(p.requestsTo('POST /orders')).toHaveLength(1);
    p.fault('POST /orders', { delayMs: 2000 });
    const impatient = new HttpSupplyAdapter(reg('supply', p.url, ['catalog', 'orders']), { timeoutMs: TIMEOUT_MS, userAgent: USER_AGENT });
    expect((await failure(impatient.createOrder({ ...order, ref: 'po-2' }))).kind).toBe('unreachable');
    await new Promise((r) => setTimeout(r, 100));
    expect(p.requestsTo('POST /orders')).toHaveLength(2);
    p.clearFaults();
    p.fault('POST /restock', { destroy: true });
    await failure(machine.sendRestock({ ref: 'rs-9', locationId: 'loc-1', binding: true, lines: [{ vendorSku: 'A1', quantity: 1 }] }));
    expect(p.requestsTo('POST /restock')).toHaveLength(1);
  });

  it('goes through the given @nestjs/axios HttpService and reports every call: endpoint without its ref, outcome, duration', async () => {
    const http = new HttpService(axios.create(PARTNER_AXIOS_CONFIG));
    const sent = jest.spyOn(http, 'request');
    const calls: [string, string, string, number][] = [];
    const observed = new HttpSupplyAdapter(reg('supply', p.url, ['catalog', 'orders']), {
      timeoutMs: PATIENT_MS,
      userAgent: USER_AGENT,
      http,
      observe: (ns, endpoint, outcome, seconds) => calls.push([ns, endpoint, outcome, seconds]),
    });
    await observed.getCatalog();
    p.fault('POST /orders', { status: 500 });
    await failure(observed.createOrder(order));
    p.clearFaults();
    await failure(observed.getOrder('po-unknown'));
    expect(sent).toHaveBeenCalledTimes(3);
    expect(calls.map(([ns, e, o]) => [ns, e, o])).toEqual([
      ['acme-supply', 'GET /catalog', 'ok'],
      ['acme-supply', 'POST /orders', 'unreachable'],
      ['acme-supply', 'GET /orders/{ref}', 'rejected'],
    ]);
    for (const [, , , seconds] of calls) expect(seconds).toBeGreaterThan(0);
    // The shared rules are the HttpService's, the partner's own are per request: the headers still reach the partner.
    expect(p.requests[0].headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(p.requests[0].headers['user-agent']).toBe(USER_AGENT);
  });

  it('an idempotent ref resent by the caller gives the same order and creates nothing new', async () => {
    const first = await supply.createOrder(order);
    const again = await supply.createOrder(order);
    expect(again).toEqual(first);
    expect(Object.keys(p.state.orders)).toEqual(['po-1']);
  });

  it('never lets the token into an error, even when the partner echoes it back', async () => {
    p.fault('GET /catalog', { status: 400, body: { ok: false, reason: `bad token ${TOKEN} for you` } });
    const e = await failure(supply.getCatalog());
    expect(e.reason).toContain('[redacted]');
    p.fault('GET /inventory', { rawBody: `${TOKEN} not json` });
    await failure(machine.getInventory('loc-1'));
  });

  it('refuses to call an endpoint whose capability is not declared, without any request', async () => {
    const readOnly = new HttpMachineAdapter(reg('machine', p.url, ['inventory', 'ledger']), { timeoutMs: PATIENT_MS, userAgent: USER_AGENT });
    const e = await failure(readOnly.setPrices('loc-1', [{ vendorSku: 'A1', priceFen: 1 }]));
    expect(e.kind).toBe('rejected');
    expect(e.reason).toContain('pricing');
    await failure(readOnly.sendRestock({ ref: 'r', locationId: 'loc-1', binding: false, lines: [] }));
    await failure(readOnly.getRestock('r'));
    const recommendOnly = new HttpMachineAdapter(reg('machine', p.url, ['inventory', 'ledger', 'replenishment.recommend']), { timeoutMs: PATIENT_MS, userAgent: USER_AGENT });
    expect((await failure(recommendOnly.sendRestock({ ref: 'r', locationId: 'loc-1', binding: true, lines: [] }))).reason).toContain('replenishment.order');
    expect(p.requests).toHaveLength(0);
  });
});
