/**
 * The money-claims core, tested once for every user (checkout complete, run place, restock sends, approval
 * execution, idempotency keys): the lease, the classification of a failed call, and the classification of the READ
 * that recovers an interrupted claim — through the real HTTP client against a real HTTP server with faults.
 */
import { callFailure, CLAIM_LEASE_MS, claimExpired, claimLeaseMs, PartnerFailure, readOutcome, tally } from '../../../src/claims/claim.rules';
import { Tx } from '../../../src/database/tx';
import { MoneyClaims } from '../../../src/claims/money-claims.service';
import type { AppConfig } from '../../../src/config/app-config';
import { PartnerError } from '../../../src/partners/adapter.types';
import { HttpSupplyAdapter } from '../../../src/partners/http/http-supply.adapter';
import { Registration } from '../../../src/partners/registry/registration';
import { SimulatedSupplier } from '../../../src/partners/simulated/simulated-supplier';
import { machineRunRecovery } from '../../../src/replenishment/runs/run.rules';
import { FakePartner, startFakePartner } from '../../partners/fake-partner-server';

const TOKEN = 'tok-claims-1';
/** No database here: a "transaction" runs its work directly and counts how often it was opened. */
let txRuns = 0;
const directTx = { run: <T>(fn: () => Promise<T>) => (txRuns++, fn()) } as unknown as Tx;
/** The timeout case's adapter gives up after this; its partner answers 3× later. */
const TIMEOUT_MS = 300;
/** Every other adapter: a loaded CI machine must not turn a partner's answer into a timeout of ours. */
const PATIENT_MS = 5_000;

describe('the claim lease (one formula for every claim)', () => {
  it('is two minutes, or twice the partner timeout when that is longer', () => {
    expect(CLAIM_LEASE_MS).toBe(120_000);
    expect(claimLeaseMs(10_000)).toBe(120_000);
    expect(claimLeaseMs(90_000)).toBe(180_000);
    expect(new MoneyClaims({ partnerTimeoutMs: 90_000 } as AppConfig, directTx).leaseMs).toBe(180_000);
  });

  it('a claim expires at the lease; a claim without a time counts as expired', () => {
    const now = new Date('2026-01-01T00:10:00Z');
    expect(claimExpired(new Date(now.getTime() - 119_999), now, 120_000)).toBe(false);
    expect(claimExpired(new Date(now.getTime() - 120_000), now, 120_000)).toBe(true);
    expect(claimExpired(null, now, 120_000)).toBe(true);
    const claims = new MoneyClaims({ partnerTimeoutMs: 10_000 } as AppConfig, directTx);
    expect(claims.expired(new Date(Date.now() - 60_000))).toBe(false);
    expect(claims.expired(new Date(Date.now() - 121_000))).toBe(true);
  });
});

describe('classification (pure)', () => {
  it('a read: found → placed; only a clear "ref unknown" → not_placed; anything else → unknown', () => {
    expect(readOutcome({ found: true })).toBe('placed');
    expect(readOutcome({ failed: { kind: 'rejected', httpStatus: 404, refUnknown: true } })).toBe('not_placed');
    const others: PartnerFailure[] = [
      { kind: 'rejected', httpStatus: 404 },
      { kind: 'rejected', httpStatus: 429 },
      { kind: 'rejected', httpStatus: 408 },
      { kind: 'rejected', httpStatus: 409 },
      { kind: 'rejected', httpStatus: 400 },
      { kind: 'rejected' },
      { kind: 'unreachable', httpStatus: 503 },
      { kind: 'unreachable' },
      { kind: 'unauthorized', httpStatus: 401 },
      { kind: 'malformed', httpStatus: 200 },
      { kind: 'other' },
    ];
    for (const f of others) expect([f, readOutcome({ failed: f })]).toEqual([f, 'unknown']);
  });

  it('a failed call: a refusal → refused (nothing ordered); anything else → uncertain', () => {
    expect(callFailure({ kind: 'rejected', httpStatus: 400 })).toBe('refused');
    for (const kind of ['unreachable', 'unauthorized', 'malformed', 'other'] as const) expect(callFailure({ kind })).toBe('uncertain');
  });

  it('a machine-restock run: all orders accepted → placed; one still sending → unknown; otherwise not placed', () => {
    expect(machineRunRecovery(['pending', 'completed', 'in_progress'])).toBe('placed');
    expect(machineRunRecovery(['pending', 'sending'])).toBe('unknown');
    expect(machineRunRecovery(['pending', 'failed'])).toBe('not_placed');
    expect(machineRunRecovery(['pending', null])).toBe('not_placed');
    expect(machineRunRecovery([])).toBe('not_placed');
  });

  it('a recovery pass counts each outcome', () => {
    let t = { checked: 0, placed: 0, released: 0, left: 0 };
    for (const o of ['placed', 'not_placed', 'unknown', 'moved', 'unknown'] as const) t = tally(t, o);
    expect(t).toEqual({ checked: 5, placed: 1, released: 1, left: 2 });
  });
});

describe('MoneyClaims against a real HTTP supplier', () => {
  let p: FakePartner;
  let supply: HttpSupplyAdapter;
  const claims = new MoneyClaims({ partnerTimeoutMs: PATIENT_MS } as AppConfig, directTx);
  const reg: Registration = {
    namespace: 'acme-supply',
    vendor: 'acme',
    role: 'supply',
    baseUrl: '',
    token: TOKEN,
    capabilities: ['catalog', 'orders'],
    status: 'live',
    sharedIdSpace: false,
  };

  beforeEach(async () => {
    p = await startFakePartner({ token: TOKEN });
    supply = new HttpSupplyAdapter({ ...reg, baseUrl: p.url }, { timeoutMs: PATIENT_MS, userAgent: 'test' });
    p.state.catalog = [{ vendorSku: 'P1', title: 'Cola x24', packSize: 24, packPriceFen: 4800, eachPriceFen: 200, stock: 9, spec: null }];
  });
  afterEach(() => p.close());

  const read = (ref = 'po-1', adapter = supply) => claims.read(() => adapter.getOrder(ref));

  it('GET /orders/{ref} answered 404 {ok:false}: not placed', async () => {
    const r = await read();
    expect(r.outcome).toBe('not_placed');
  });

  it('the order exists: placed, with what was read', async () => {
    await supply.createOrder({ ref: 'po-1', lines: [{ vendorSku: 'P1', quantity: 1, unit: 'pack' }], fulfillment: { method: 'shipping' } });
    const r = await read();
    expect(r.outcome).toBe('placed');
    expect(r.outcome === 'placed' && r.value.ref).toBe('po-1');
  });

  const unknownCases: [string, Parameters<FakePartner['fault']>[1]][] = [
    ['404 without {ok:false} (empty body)', { status: 404, rawBody: '' }],
    ['404 with another body', { status: 404, body: { error: 'not here' } }],
    ['404 with an HTML page', { status: 404, rawBody: '<html>Not Found</html>' }],
    ['429 too many requests', { status: 429, body: { ok: false, reason: 'slow down' } }],
    ['408 request timeout', { status: 408, body: { ok: false, reason: 'timeout' } }],
    ['409 conflict', { status: 409, body: { ok: false, reason: 'busy' } }],
    ['400 another refusal', { status: 400, body: { ok: false, reason: 'bad ref' } }],
    ['500', { status: 500 }],
    ['503', { status: 503 }],
    ['a timeout', { delayMs: TIMEOUT_MS * 3 }],
    ['a reset connection', { destroy: true }],
    ['a malformed 200', { status: 200, rawBody: 'not json' }],
    ['401', { status: 401 }],
  ];
  for (const [name, fault] of unknownCases) {
    it(`GET /orders/{ref} answered ${name}: unknown (keep the hold, send nothing)`, async () => {
      p.fault('GET /orders/:ref', fault);
      const impatient = new HttpSupplyAdapter({ ...reg, baseUrl: p.url }, { timeoutMs: TIMEOUT_MS, userAgent: 'test' });
      const r = await read('po-1', fault.delayMs ? impatient : supply);
      expect(r.outcome).toBe('unknown');
      // The partner's own answer decided it, not a timeout of ours.
      if (fault.status !== undefined && r.outcome === 'unknown') expect(r.failure.httpStatus).toBe(fault.status);
      expect(p.requestsTo('GET /orders/:ref')).toHaveLength(1);
      expect(p.requestsTo('POST /orders')).toHaveLength(0);
    });
  }

  it('callOnce: one request whatever happens; a 4xx refusal is refused, a 5xx or a reset is uncertain', async () => {
    const req = { ref: 'po-2', lines: [{ vendorSku: 'P1', quantity: 1, unit: 'pack' as const }], fulfillment: { method: 'shipping' as const } };
    p.fault('POST /orders', { status: 400, body: { ok: false, reason: 'no' }, times: 1 });
    const refused = await claims.callOnce(() => supply.createOrder(req));
    expect(refused).toMatchObject({ ok: false, failure: 'refused' });
    p.fault('POST /orders', { status: 503, times: 1 });
    expect(await claims.callOnce(() => supply.createOrder(req))).toMatchObject({ ok: false, failure: 'uncertain' });
    p.fault('POST /orders', { destroy: true, times: 1 });
    expect(await claims.callOnce(() => supply.createOrder(req))).toMatchObject({ ok: false, failure: 'uncertain' });
    expect(p.requestsTo('POST /orders')).toHaveLength(3);
    const ok = await claims.callOnce(() => supply.createOrder(req));
    expect(ok.ok && ok.value.ref).toBe('po-2');
  });

  it('the simulated supplier says "ref unknown" the same way (404, not placed); its other refusals are not that', async () => {
    const sim = new SimulatedSupplier('sim-supply');
    expect((await claims.read(() => sim.getOrder('nope'))).outcome).toBe('not_placed');
    const e = new PartnerError('rejected', 'x', 'bad', 400, false);
    expect((await claims.read(() => Promise.reject(e))).outcome).toBe('unknown');
  });
});

describe('settling an interrupted claim by reading (the shape every recovery shares)', () => {
  const claims = new MoneyClaims({ partnerTimeoutMs: 10_000 } as AppConfig, directTx);
  const applied: string[] = [];
  const apply = (moved: boolean) => async (r: { outcome: string }) => (applied.push(r.outcome), moved);

  beforeEach(() => {
    applied.length = 0;
    txRuns = 0;
  });

  it('unknown: nothing is applied and no transaction is opened', async () => {
    expect(await claims.settleByReading('x', async () => ({ outcome: 'unknown' as const }), () => 'HTTP 503', apply(true))).toBe('unknown');
    expect([applied, txRuns]).toEqual([[], 0]);
  });

  it('a clear answer is applied in one transaction and answered', async () => {
    expect(await claims.settleByReading('x', async () => ({ outcome: 'placed' as const }), () => '', apply(true))).toBe('placed');
    expect(await claims.settleByReading('x', async () => ({ outcome: 'not_placed' as const }), () => '', apply(true))).toBe('not_placed');
    expect([applied, txRuns]).toEqual([['placed', 'not_placed'], 2]);
  });

  it('settled meanwhile by someone else: moved', async () => {
    expect(await claims.settleByReading('x', async () => ({ outcome: 'placed' as const }), () => '', apply(false))).toBe('moved');
  });
});
