#!/usr/bin/env node
// Loads the machines bench data set into a migrated PostgreSQL database, on the server (INSERT ... SELECT over
// generate_series: no rows cross the wire): 1,000 machines (`bm-0000`..`bm-0999`, namespace `bench-machine`),
// 60 slots each, and 1,000,000 sale orders with one line each, taken over the last 60 days.
// About 9 in 10 orders are settled, 1 in 20 refunded, 1 in 33 cancelled; 1 in 4 has no updated_at.
// Usage: node bench/data/load-machines.js <DATABASE_URL> [--machines 1000] [--orders 1000000]
const { Client } = require('pg');

async function loadMachines(databaseUrl, { machines = 1000, slotsPerMachine = 60, orders = 1_000_000, log = console.log } = {}) {
  const c = new Client({ connectionString: databaseUrl });
  await c.connect();
  const step = async (name, sql, params = []) => {
    const t0 = Date.now();
    const r = await c.query(sql, params);
    log(`  ${name}: ${r.rowCount ?? ''} rows in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  };
  try {
    await c.query('SET synchronous_commit = off');
    const spanMs = 60 * 86_400_000;
    await step(
      'locations',
      `INSERT INTO locations (id, namespace, name, profile)
       SELECT 'bm-' || lpad(g::text, 4, '0'), 'bench-machine', 'Bench machine ' || g,
              jsonb_build_object('city', (ARRAY['Shanghai','Beijing','Hangzhou','Shenzhen'])[1 + g % 4], 'floor', g % 10)
       FROM generate_series(0, $1::int - 1) g`,
      [machines],
    );
    await step(
      'slots',
      `INSERT INTO slots (id, location_id, namespace, vendor_sku, sku_id, title, barcode, price_fen, stock, capacity, partner_slot_id)
       SELECT 'bm-' || lpad(m::text, 4, '0') || '-P' || lpad(s::text, 3, '0'), 'bm-' || lpad(m::text, 4, '0'), 'bench-machine',
              'P' || lpad(s::text, 3, '0'), 'bench-machine:P' || lpad(s::text, 3, '0'), 'Product ' || s,
              (6900000000000 + s)::text, 200 + s * 10, (m * 7 + s) % 13, 12, 'S' || s
       FROM generate_series(0, $1::int - 1) m, generate_series(0, $2::int - 1) s`,
      [machines, slotsPerMachine],
    );
    await step(
      'sale_orders',
      `INSERT INTO sale_orders (id, namespace, location_id, total_fen, taken_at, has_taken_at, settled_at, updated_at, finalized,
                                trade_status, trade_status_raw)
       SELECT 'B' || lpad(g::text, 8, '0'), 'bench-machine', 'bm-' || lpad(((g::bigint * 7919) % $2::int)::text, 4, '0'),
              200 + (g % $3::int) * 10, t, true, t + interval '1 second',
              CASE WHEN g % 4 = 0 THEN NULL ELSE t + interval '2 seconds' END, true,
              CASE WHEN g % 20 = 0 THEN 'refunded' WHEN g % 33 = 0 THEN 'cancelled' ELSE 'settled' END,
              CASE WHEN g % 20 = 0 THEN 'REFUND_SUCCESS' WHEN g % 33 = 0 THEN 'TRADE_CLOSED' ELSE 'TRADE_SUCCESS' END
       FROM generate_series(0, $1::int - 1) g,
            LATERAL (SELECT date_trunc('milliseconds', now() - $4::bigint * interval '1 millisecond'
                                        + (g::bigint * $4::bigint / $1::int) * interval '1 millisecond') AS t) x`,
      [orders, machines, slotsPerMachine, spanMs],
    );
    await step(
      'sale_lines',
      `INSERT INTO sale_lines (order_id, line_no, vendor_sku, sku_id, slot_id, title, quantity, price_fen, status, cost_fen)
       SELECT 'B' || lpad(g::text, 8, '0'), 1, 'P' || lpad((g % $3::int)::text, 3, '0'), 'bench-machine:P' || lpad((g % $3::int)::text, 3, '0'),
              'bm-' || lpad(((g::bigint * 7919) % $2::int)::text, 4, '0') || '-P' || lpad((g % $3::int)::text, 3, '0'),
              'Product ' || (g % $3::int), 1, 200 + (g % $3::int) * 10,
              CASE WHEN g % 20 = 0 THEN 'refunded' WHEN g % 33 = 0 THEN 'cancelled' ELSE 'paid' END, NULL
       FROM generate_series(0, $1::int - 1) g`,
      [orders, machines, slotsPerMachine],
    );
    await step('analyze', 'ANALYZE locations, slots, sale_orders, sale_lines');
  } finally {
    await c.end();
  }
}

module.exports = { loadMachines };

if (require.main === module) {
  const url = process.argv[2];
  if (!url) {
    console.error('usage: node bench/data/load-machines.js <DATABASE_URL> [--machines N] [--orders N]');
    process.exit(2);
  }
  const arg = (n, d) => (process.argv.includes(`--${n}`) ? Number(process.argv[process.argv.indexOf(`--${n}`) + 1]) : d);
  const t0 = Date.now();
  loadMachines(url, { machines: arg('machines', 1000), orders: arg('orders', 1_000_000) })
    .then(() => console.log(`loaded in ${((Date.now() - t0) / 1000).toFixed(1)} s`))
    .catch((e) => {
      console.error(e);
      process.exit(1);
    });
}
