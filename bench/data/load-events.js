#!/usr/bin/env node
// Loads N audit events (default 100,000) into a migrated database, on the server (INSERT ... SELECT over
// generate_series): six kinds, one in three with a location, one in two with structured data, over the last 30 days.
// Usage: node bench/data/load-events.js <DATABASE_URL> [--events 100000]
const { Client } = require('pg');

async function loadEvents(databaseUrl, { events = 100_000, log = console.log } = {}) {
  const c = new Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    await c.query('SET synchronous_commit = off');
    const t0 = Date.now();
    const r = await c.query(
      `INSERT INTO events (occurred_at, kind, source, summary, reasoning, location, data)
       SELECT now() - interval '30 days' + (g::bigint * 2592000000 / $1::int) * interval '1 millisecond',
              (ARRAY['sync.completed','price.changed','restock.requested','checkout.completed','approval.decided','plan.computed'])[1 + g % 6],
              'service',
              'bench event ' || g || ' for machine bm-' || lpad((g % 1000)::text, 4, '0'),
              'recorded by the bench loader so that the event log holds a realistic amount of text per entry (' || g || ')',
              CASE WHEN g % 3 = 0 THEN 'bm-' || lpad((g % 1000)::text, 4, '0') END,
              CASE WHEN g % 2 = 0 THEN jsonb_build_object('seq', g, 'amount_fen', 100 + g % 900, 'scope', 'ledger') END
       FROM generate_series(1, $1::int) g`,
      [events],
    );
    await c.query('ANALYZE events');
    log(`  events: ${r.rowCount} rows in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  } finally {
    await c.end();
  }
}

module.exports = { loadEvents };

if (require.main === module) {
  const url = process.argv[2];
  if (!url) {
    console.error('usage: node bench/data/load-events.js <DATABASE_URL> [--events N]');
    process.exit(2);
  }
  const i = process.argv.indexOf('--events');
  loadEvents(url, { events: i > 0 ? Number(process.argv[i + 1]) : 100_000 }).catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
