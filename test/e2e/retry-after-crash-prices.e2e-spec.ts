import { DataSource } from 'typeorm';
import { FakePartner, startFakePartner } from '../partners/fake-partner-server';
import { crashWithKeyInFlight } from '../support/crashes';
import { BOTH_DATABASES, startTestApp, TestApp } from '../support/test-app';

/**
 * Issue 27, item 2, for prices: a price change retried with the same Idempotency-Key and body after its first
 * attempt's process died answers the prices that attempt applied: found in the service's own record first, on the
 * platform second (then recorded), never sent again; a price superseded by a later acknowledged change is never
 * sent again; a change that took no effect is sent once. The kill is written into the database (the key in_flight,
 * claimed 5 minutes ago); the machine platform is a real HTTP server.
 */
jest.setTimeout(120_000);

type Item = { vendorSku: string; priceFen: number };

describe.each(BOTH_DATABASES)('a retry of a price change after a crash, on %s', (db) => {
  let p: FakePartner;
  let t: TestApp;
  let ds: DataSource;
  beforeAll(async () => {
    p = await startFakePartner({ token: 'm-token' });
    t = await startTestApp({
      db,
      env: {
        SERVICE_ENV: 'production',
        SERVICE_HTTP_VENDORS: JSON.stringify([{ namespace: 'acme-machine', baseUrl: p.url, token: p.token, capabilities: ['inventory', 'ledger', 'pricing'] }]),
        SERVICE_DEFAULT_MACHINE_NAMESPACE: 'acme-machine',
      },
    });
    ds = t.app.get(DataSource);
    await ds.query(`INSERT INTO locations (id, namespace, name) VALUES ('loc-1', 'acme-machine', 'Machine loc-1')`);
    p.state.inventory['loc-1'] = [];
  });
  afterAll(async () => {
    await t.close();
    await p.close();
  });

  async function slot(sku: string): Promise<void> {
    (p.state.inventory['loc-1'] as Item[]).push({ vendorSku: sku, title: sku, priceFen: 500, stock: 4 } as Item);
    await ds.query(`INSERT INTO slots (id, location_id, namespace, vendor_sku, sku_id, title, price_fen, stock) VALUES ($1, 'loc-1', 'acme-machine', $2, $3, $2, 500, 4)`, [`loc-1-${sku}`, sku, `acme-machine:${sku}`]);
  }
  const body = (sku: string, fen: number) => ({ confirm: true, prices: [{ item: { id: `acme-machine:${sku}` }, price: { amount: fen, currency: 'CNY' } }] });
  const put = (sku: string, fen: number, key?: string) => {
    const r = t.put('/ucp/v1/locations/loc-1/prices', body(sku, fen));
    return key ? r.set('Idempotency-Key', key) : r;
  };
  /** The first attempt of `sku` → `fen` under `key` died (its key in_flight, claimed 5 minutes ago). */
  const died = (sku: string, fen: number, key: string) => crashWithKeyInFlight(t, key, { operation: 'pricing.update', resourceId: 'loc-1', body: body(sku, fen) }, 300);
  const platform = (sku: string) => (p.state.inventory['loc-1'] as Item[]).find((i) => i.vendorSku === sku)!.priceFen;
  const posted = (sku: string) => p.requestsTo('POST /prices').filter((r) => (r.body as { prices: Item[] }).prices.some((x) => x.vendorSku === sku)).map((r) => (r.body as { prices: Item[] }).prices[0].priceFen);
  const slotPrice = async (sku: string) => Number(((await ds.query(`SELECT price_fen FROM slots WHERE id = $1`, [`loc-1-${sku}`])) as { price_fen: string }[])[0].price_fen);
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
    (p.state.inventory['loc-1'] as Item[]).find((i) => i.vendorSku === 'P2')!.priceFen = 560; // the dead process's POST
    const res = await put('P2', 560, `k-p2-${db}`).expect(200);
    expect(res.body.updated).toEqual([change('P2', 500, 560)]);
    expect(codes(res.body)).toEqual(['price_recovered']);
    expect(posted('P2')).toEqual([]);
    expect(await slotPrice('P2')).toBe(560);
    const ev = (await t.get('/ucp/v1/events?kind=price.changed&location=loc-1').expect(200)).body.events.filter((e: { data: { recovered?: boolean; changes: { item: string }[] } }) => e.data.recovered && e.data.changes.some((c) => c.item === 'acme-machine:P2'));
    expect(ev).toHaveLength(1);
  });

  it('superseded by a later acknowledged change: the retry never sends the old price again; the later price stands', async () => {
    await slot('P3');
    await died('P3', 560, `k-p3-${db}`);
    (p.state.inventory['loc-1'] as Item[]).find((i) => i.vendorSku === 'P3')!.priceFen = 560; // the dead process's POST
    await put('P3', 520, `k-p3-later-${db}`).expect(200); // a later change, acknowledged and recorded
    const res = await put('P3', 560, `k-p3-${db}`).expect(200);
    expect(res.body.updated).toEqual([]);
    expect(codes(res.body)).toEqual(['price_superseded']);
    expect(posted('P3')).toEqual([520]);
    expect(platform('P3')).toBe(520);
    expect(await slotPrice('P3')).toBe(520);
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
