import { FakePartner, startFakePartner } from '../partners/fake-partner-server';
import { crashWithKeyInFlight } from '../support/crashes';
import { addSlot, platformItem, priceBody, pricesPosted, pricingApp, slotPrice } from '../support/money-fixtures';
import { BOTH_DATABASES, TestApp } from '../support/test-app';

/**
 * Issue 27, item 2, for prices: a price change retried with the same Idempotency-Key and body after its first
 * attempt's process died answers the prices that attempt applied: found in the service's own record first, on the
 * platform second (then recorded), never sent again; a price superseded by a later acknowledged change is never
 * sent again; a change that took no effect is sent once. The kill is written into the database (the key in_flight,
 * claimed 5 minutes ago); the machine platform is a real HTTP server.
 */
jest.setTimeout(120_000);

describe.each(BOTH_DATABASES)('a retry of a price change after a crash, on %s', (db) => {
  let p: FakePartner;
  let t: TestApp;
  beforeAll(async () => {
    p = await startFakePartner({ token: 'm-token' });
    t = await pricingApp(p, db);
  });
  afterAll(async () => {
    await t.close();
    await p.close();
  });

  const slot = (sku: string) => addSlot(t, p, sku);
  const body = priceBody;
  const put = (sku: string, fen: number, key?: string) => {
    const r = t.put('/ucp/v1/locations/loc-1/prices', body(sku, fen));
    return key ? r.set('Idempotency-Key', key) : r;
  };
  /** The first attempt of `sku` → `fen` under `key` died (its key in_flight, claimed 5 minutes ago). */
  const died = (sku: string, fen: number, key: string) => crashWithKeyInFlight(t, key, { operation: 'pricing.update', resourceId: 'loc-1', body: body(sku, fen) }, 300);
  const platform = (sku: string) => platformItem(p, sku).priceFen;
  const posted = (sku: string) => pricesPosted(p, sku);
  const codes = (b: { messages: { code: string }[] }) => b.messages.map((m) => m.code);
  const change = (sku: string, previous: number, price: number) => ({ item: { id: `acme-machine:${sku}` }, previous: { amount: previous, currency: 'CNY' }, price: { amount: price, currency: 'CNY' } });

  it('applied and recorded, killed before its answer was stored: the retry answers the applied price from the record and sends nothing; replayed after', async () => {
    await slot('P1');
    await died('P1', 560, `k-p1-${db}`);
    await put('P1', 560).expect(200); // the first attempt's effect, recorded
    const res = await put('P1', 560, `k-p1-${db}`).expect(200);
    expect(res.body.updated).toEqual([change('P1', 500, 560)]);
    expect(codes(res.body)).toEqual(['price_recovered']);
    expect(posted('P1')).toEqual([560]);
    const replay = await put('P1', 560, `k-p1-${db}`).expect(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.updated).toEqual([change('P1', 500, 560)]);
  });

  it('killed 4 ms after the platform answered, before recording: the retry reads the platform, records the price once and answers it; nothing is sent', async () => {
    await slot('P2');
    await died('P2', 560, `k-p2-${db}`);
    platformItem(p, 'P2').priceFen = 560; // the dead process's POST
    const res = await put('P2', 560, `k-p2-${db}`).expect(200);
    expect(res.body.updated).toEqual([change('P2', 500, 560)]);
    expect(codes(res.body)).toEqual(['price_recovered']);
    expect(posted('P2')).toEqual([]);
    expect(await slotPrice(t, 'P2')).toBe(560);
    const ev = (await t.get('/ucp/v1/events?kind=price.changed&location=loc-1').expect(200)).body.events.filter((e: { data: { recovered?: boolean; changes: { item: string }[] } }) => e.data.recovered && e.data.changes.some((c) => c.item === 'acme-machine:P2'));
    expect(ev).toHaveLength(1);
  });

  it('superseded by a later acknowledged change: the retry never sends the old price again; the later price stands', async () => {
    await slot('P3');
    await died('P3', 560, `k-p3-${db}`);
    platformItem(p, 'P3').priceFen = 560; // the dead process's POST
    await put('P3', 520, `k-p3-later-${db}`).expect(200); // a later change, acknowledged and recorded
    const res = await put('P3', 560, `k-p3-${db}`).expect(200);
    expect(res.body.updated).toEqual([]);
    expect(codes(res.body)).toEqual(['price_superseded']);
    expect(posted('P3')).toEqual([520]);
    expect(platform('P3')).toBe(520);
    expect(await slotPrice(t, 'P3')).toBe(520);
  });

  it('nothing reached the platform and nothing was recorded: the retry sends it once', async () => {
    await slot('P4');
    await died('P4', 560, `k-p4-${db}`);
    const res = await put('P4', 560, `k-p4-${db}`).expect(200);
    expect(res.body.updated).toEqual([change('P4', 500, 560)]);
    expect(codes(res.body)).toEqual([]);
    expect(posted('P4')).toEqual([560]);
  });
});
