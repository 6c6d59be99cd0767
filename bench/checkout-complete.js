#!/usr/bin/env node
// Checkout complete round trip (issue 5): POST /checkout-sessions/{id}/complete against a real HTTP supplier on
// loopback (the test fake partner), sequentially and with 16 concurrent sessions; prints median and p99 in ms.
// Usage: npm run build && node bench/checkout-complete.js [--dist dist] [--n 60] [--concurrency 16] [--rounds 20]
// Needs the PostgreSQL server of TEST_PG_URL (it creates and drops one database).
const path = require('node:path');
const { sql } = require('./data/sql');

const arg = (name, def) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : def;
};
const dist = path.resolve(arg('dist', path.join(__dirname, '..', 'dist')));
const n = Number(arg('n', '60'));
const concurrency = Number(arg('concurrency', '16'));
const rounds = Number(arg('rounds', '20'));
const adminUrl = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const admin = (text) => sql(adminUrl, text);

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

async function main() {
  require('reflect-metadata');
  const { createApp } = require(path.join(dist, 'src/bootstrap.js'));
  const { loadConfig } = require(path.join(dist, 'src/config/app-config.js'));
  const { startFakePartner } = require(path.join(dist, 'test/partners/fake-partner-server.js'));
  const db = `bench_checkout_${process.pid}`;
  await admin(`CREATE DATABASE "${db}"`);
  const u = new URL(adminUrl);
  u.pathname = `/${db}`;
  const supplier = await startFakePartner({ token: 'bench-sup' });
  supplier.state.catalog = [{ vendorSku: 'COLA', title: 'Cola', packSize: 24, packPriceFen: 4800, eachPriceFen: 200, stock: 1e9 }];
  const token = 'bench-token-0123456789'; // production refuses tokens under 16 characters
  const config = loadConfig({
    SERVICE_ENV: 'production',
    SERVICE_AUTH_TOKEN: token,
    SERVICE_RATE_LIMIT: 'off', // benchmarks measure the service, not the limiter
    SERVICE_PUBLIC_URL: 'http://127.0.0.1', // production requires it (links never come from the Host header)
    SERVICE_SCHEDULER: 'off',
    DATABASE_URL: u.toString(),
    SERVICE_HTTP_VENDORS: JSON.stringify([{ namespace: 'acme-supply', baseUrl: supplier.url, token: 'bench-sup', capabilities: ['catalog', 'orders'] }]),
    SERVICE_GUARDS: JSON.stringify({
      budget: { perOrderFen: 1e12, dailyFen: 1e12, monthlyFen: 1e12 },
      priceCapPerItem: { maxMoveFen: 200, maxMovePercent: 25 },
      probationVendors: [],
      hardNoGo: { vendors: [], skus: [] },
    }),
  });
  const { Writable } = require('node:stream');
  const app = await createApp(config, { logLevel: 'warn', logDestination: new Writable({ write: (_c, _e, cb) => cb() }) });
  await app.listen(0, '127.0.0.1');
  const base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'user-agent': 'checkout-bench/1.0' };
  const post = (p, body) => fetch(base + p, { method: 'POST', headers, body: JSON.stringify(body) });
  let seq = 0;
  const session = async () => {
    const id = `B-${process.pid}-${++seq}`;
    const r = await post('/ucp/v1/checkout-sessions', {
      id,
      line_items: [{ item: { id: 'acme-supply:COLA' }, quantity: 1, quantity_unit: { unit: 'BX' } }],
      fulfillment: { methods: [{ type: 'shipping', destinations: [{ street_address: 'x', first_name: 'y', phone_number: '1' }] }] },
    });
    if (r.status !== 201) throw new Error(`create ${r.status}`);
    return id;
  };
  const complete = async (id) => {
    const t0 = process.hrtime.bigint();
    const r = await post(`/ucp/v1/checkout-sessions/${id}/complete`, { confirm: true });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    const body = await r.json();
    if (r.status !== 200 || body.status !== 'completed') throw new Error(`complete ${r.status} ${JSON.stringify(body.messages)}`);
    return ms;
  };
  try {
    for (let i = 0; i < 5; i++) await complete(await session()); // warm-up
    const seqMs = [];
    for (let i = 0; i < n; i++) seqMs.push(await complete(await session()));
    const conMs = [];
    const t0 = Date.now();
    for (let r = 0; r < rounds; r++) {
      const ids = await Promise.all(Array.from({ length: concurrency }, session));
      conMs.push(...(await Promise.all(ids.map(complete))));
    }
    const wall = (Date.now() - t0) / 1000;
    const orders = supplier.requestsTo('POST /orders').length;
    console.log(
      JSON.stringify(
        {
          sequential: { completes: n, median_ms: +pct(seqMs, 50).toFixed(2), p99_ms: +pct(seqMs, 99).toFixed(2) },
          concurrent: { sessions_at_once: concurrency, completes: conMs.length, median_ms: +pct(conMs, 50).toFixed(2), p99_ms: +pct(conMs, 99).toFixed(2), max_ms: +Math.max(...conMs).toFixed(2), wall_s: wall },
          supplier_orders: orders,
          expected_orders: 5 + n + conMs.length,
        },
        null,
        2,
      ),
    );
  } finally {
    await app.close();
    await supplier.close();
    await admin(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
