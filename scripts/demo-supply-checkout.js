#!/usr/bin/env node
/**
 * Demo of issue 10: a production-mode service (`node dist/main.js`, SERVICE_ENV=production, a fresh database on
 * TEST_PG_URL's server) over two real HTTP partners served by this script: `acme` in both roles with
 * `sharedIdSpace: true` (two machines) and `beta`, a second supplier reached through a barcode. It syncs the fleet,
 * creates a `supply_checkout` run, places it with `{confirm: true}` and prints the placed run and the purchase orders.
 *
 *   npm run build && node scripts/demo-supply-checkout.js
 */
const http = require('node:http');
const { spawn } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const path = require('node:path');
const { Client } = require('pg');

const ADMIN_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const TOKEN = `demo-${randomBytes(8).toString('hex')}`;
const EAN = '6901234567892';

/** A minimal partner serving the contract endpoints the demo needs (inventory, ledger, catalog, orders). */
function partner(token, state) {
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const send = (status, body) => {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.headers.authorization !== `Bearer ${token}`) return send(401, { ok: false, reason: 'bad token' });
      const u = new URL(req.url, 'http://x');
      if (req.method === 'GET' && u.pathname === '/inventory') {
        const items = state.inventory[u.searchParams.get('locationId')];
        return items ? send(200, { items }) : send(404, { ok: false, reason: 'unknown location' });
      }
      if (req.method === 'GET' && u.pathname === '/ledger') return send(200, { records: [], hasMore: false });
      if (req.method === 'GET' && u.pathname === '/catalog') return send(200, { products: state.catalog });
      if (req.method === 'POST' && u.pathname === '/orders') {
        const b = JSON.parse(raw || '{}');
        state.orders[b.ref] ??= { ref: b.ref, orderId: `${state.prefix}-${Object.keys(state.orders).length + 1}`, state: 'ordered', rawStatus: 'CREATED', request: b };
        const o = state.orders[b.ref];
        return send(200, { ref: o.ref, orderId: o.orderId, state: o.state, rawStatus: o.rawStatus });
      }
      const m = /^\/orders\/(.+)$/.exec(u.pathname);
      if (req.method === 'GET' && m) {
        const o = state.orders[decodeURIComponent(m[1])];
        return o ? send(200, { ref: o.ref, state: o.state, rawStatus: o.rawStatus, logistics: [] }) : send(404, { ok: false, reason: 'unknown ref' });
      }
      send(404, { ok: false, reason: 'no route' });
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}` })));
}

async function admin(sql) {
  const c = new Client({ connectionString: ADMIN_URL });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

async function main() {
  const acmeState = {
    prefix: 'ACME',
    orders: {},
    inventory: {
      'DEMO-1': [
        { vendorSku: 'COLA', title: 'Cola 330ml', priceFen: 350, stock: 4 },
        { vendorSku: 'TEA', title: 'Green tea 500ml', priceFen: 450, stock: 2, barcode: EAN },
      ],
      'DEMO-2': [
        { vendorSku: 'COLA', title: 'Cola 330ml', priceFen: 350, stock: 4 },
        { vendorSku: 'NUTS', title: 'Salted peanuts 80g', priceFen: 800, stock: 1 },
      ],
    },
    catalog: [{ vendorSku: 'COLA', title: 'Cola 330ml x24', packSize: 24, packPriceFen: 4800, eachPriceFen: 200, stock: 500 }],
  };
  const betaState = {
    prefix: 'BETA',
    orders: {},
    inventory: {},
    catalog: [{ vendorSku: 'BT-9', title: 'Green tea 500ml x6', packSize: 6, packPriceFen: 1800, eachPriceFen: 300, stock: 80, barcode: EAN }],
  };
  const acme = await partner('acme-secret', acmeState);
  const beta = await partner('beta-secret', betaState);
  const db = `demo_supply_checkout_${randomBytes(4).toString('hex')}`;
  await admin(`CREATE DATABASE "${db}"`);
  const dbUrl = new URL(ADMIN_URL);
  dbUrl.pathname = `/${db}`;
  const port = 20000 + Math.floor(Math.random() * 20000);
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [path.join(__dirname, '..', 'dist', 'main.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SERVICE_ENV: 'production',
      SERVICE_AUTH_TOKEN: TOKEN,
      SERVICE_PUBLIC_URL: base, // production requires it (links never come from the Host header)
      DATABASE_URL: dbUrl.toString(),
      SERVICE_SCHEDULER: 'off',
      LOG_LEVEL: 'warn',
      SERVICE_HTTP_VENDORS: JSON.stringify([
        { namespace: 'acme-machine', baseUrl: acme.url, token: 'acme-secret', capabilities: ['inventory', 'ledger'], sharedIdSpace: true },
        { namespace: 'acme-supply', baseUrl: acme.url, token: 'acme-secret', capabilities: ['catalog', 'orders'], sharedIdSpace: true },
        { namespace: 'beta-supply', baseUrl: beta.url, token: 'beta-secret', capabilities: ['catalog', 'orders'] },
      ]),
      SERVICE_DEFAULT_MACHINE_NAMESPACE: 'acme-machine',
      SERVICE_DEFAULT_SUPPLY_NAMESPACE: 'acme-supply',
      SERVICE_GUARDS: JSON.stringify({
        killSwitch: false,
        budget: { perOrderFen: 100000, dailyFen: 300000, monthlyFen: 3000000 },
        priceCapPerItem: { maxMoveFen: 200, maxMovePercent: 25 },
        probationVendors: [],
        hardNoGo: { vendors: [], skus: [] },
      }),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const call = async (method, p, body) => {
    const r = await fetch(`${base}${p}`, {
      method,
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json', 'User-Agent': 'demo-supply-checkout/1.0' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await r.json();
    if (r.status >= 400) throw new Error(`${method} ${p} → ${r.status} ${JSON.stringify(json)}`);
    return json;
  };
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/readyz`)).ok) break;
      } catch {
        /* not listening yet */
      }
      if (i > 150) throw new Error('the service did not become ready');
      await new Promise((r) => setTimeout(r, 200));
    }
    await call('PUT', '/ucp/v1/locations/DEMO-1', { name: 'Lobby' });
    await call('PUT', '/ucp/v1/locations/DEMO-2', { name: 'Gym' });
    await call('POST', '/ucp/v1/locations/sync', {});
    const run = await call('POST', '/ucp/v1/replenishment/runs?fulfiller=supply_checkout');
    const placed = await call('POST', `/ucp/v1/replenishment/runs/${run.id}/place`, { confirm: true });
    const purchases = await call('GET', '/ucp/v1/orders?kind=purchase');
    console.log(JSON.stringify({ created_messages: run.messages, placed_run: placed, purchase_orders: purchases.orders.map((o) => ({ id: o.id, checkout_id: o.checkout_id, kind: o.kind, totals: o.totals })), supplier_posts: { acme: Object.keys(acmeState.orders), beta: Object.keys(betaState.orders) } }, null, 2));
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    acme.server.close();
    beta.server.close();
    await admin(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
