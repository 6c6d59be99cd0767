#!/usr/bin/env node
/*
 * Conformance check a partner runs against its own adapter (docs/partner-contract.md). Plain Node >= 18, no deps.
 *
 *   node scripts/check-partner.js --base-url https://adapter.example.com/ucp --token T --role machine --location L
 *   node scripts/check-partner.js --base-url URL --role supply [--place-test-order --sku S --method pickup]
 *
 * Options: --token (or env PARTNER_TOKEN, which keeps it out of the process list), --timeout-ms (default 10000).
 * It calls only the read endpoints. POST /orders places a real purchase, so it is called only with
 * --place-test-order. POST /prices and POST /restock are never called. Prints PASS / FAIL / WARN lines and exits
 * 0 when nothing failed, 1 when a check failed, 2 on a usage error. The token is never printed.
 */
'use strict';

const TRADE_STATES = ['in_progress', 'pending_review', 'settled', 'payment_failed', 'refunded', 'cancelled'];
const ORDER_STATES = ['ordered', 'arrived', 'cancelled'];
const MIN_MS = Date.UTC(2000, 0, 1);
const MAX_DETAILS = 10;

function usage(message) {
  console.error(`${message}\nusage: node scripts/check-partner.js --base-url URL --token T --role machine|supply [--location L] [--place-test-order [--sku S] [--unit each|pack] [--method shipping|pickup|restock]] [--timeout-ms N]`);
  process.exit(2);
}

function parseArgs(argv) {
  const flags = new Set(['--place-test-order', '--help']);
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) usage(`unexpected argument ${a}`);
    if (flags.has(a)) out[a.slice(2)] = true;
    else if (i + 1 < argv.length) out[a.slice(2)] = argv[++i];
    else usage(`${a} needs a value`);
  }
  return out;
}

const args = parseArgs(process.argv.slice(2));
if (args.help) usage('Checks a partner adapter against the partner contract.');
const baseUrl = String(args['base-url'] || '').replace(/\/+$/, '');
const token = args.token || process.env.PARTNER_TOKEN || '';
const role = args.role;
const timeoutMs = Number(args['timeout-ms'] || 10000);
if (!/^https?:\/\//.test(baseUrl)) usage('--base-url must be an http(s) URL');
if (!token) usage('--token (or PARTNER_TOKEN) is required');
if (role !== 'machine' && role !== 'supply') usage('--role must be machine or supply');
if (role === 'machine' && !args.location) usage('--location is required for the machine role (the id registered with PUT /locations/{id})');
if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) usage('--timeout-ms must be a positive integer');

let failed = 0;
let passed = 0;
const pass = (name) => {
  passed++;
  console.log(`PASS  ${name}`);
};
const fail = (name, detail) => {
  failed++;
  console.log(`FAIL  ${name}: ${scrub(detail)}`);
};
const warn = (name, detail) => console.log(`WARN  ${name}: ${scrub(detail)}`);
const scrub = (s) => String(s).split(token).join('[token]');
const show = (v) => (v === undefined ? 'missing' : JSON.stringify(v));

async function call(method, path, { body, auth = token } = {}) {
  try {
    const res = await fetch(baseUrl + path, {
      method,
      headers: {
        Authorization: `Bearer ${auth}`,
        Accept: 'application/json',
        'User-Agent': 'partner-contract-check/1 (+docs/partner-contract.md)',
        ...(body ? { 'Content-Type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    let json;
    let jsonError = null;
    try {
      json = JSON.parse(text);
    } catch {
      jsonError = `body is not JSON (starts with ${JSON.stringify(text.slice(0, 40))})`;
    }
    return { status: res.status, json, jsonError };
  } catch (e) {
    return { status: 0, networkError: e && e.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : `network error: ${e && e.cause ? e.cause.code || e.cause.message : e}` };
  }
}

/** A 2xx JSON object with an array under `key`, or a FAIL naming why. */
function expectList(name, r, key) {
  if (r.networkError) return fail(name, r.networkError), null;
  if (r.status !== 200) return fail(name, `HTTP ${r.status} ${show(r.json)}`), null;
  if (r.jsonError) return fail(name, r.jsonError), null;
  if (!r.json || typeof r.json !== 'object' || Array.isArray(r.json)) return fail(name, 'the answer is not a JSON object'), null;
  if (!Array.isArray(r.json[key])) return fail(name, `the answer has no "${key}" array`), null;
  pass(`${name} answers {${key}: [...]} (${r.json[key].length} records)`);
  return r.json[key];
}

// ---- field rules (the same as the service's parsers) ----
const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const fen = (v) => Number.isSafeInteger(v) && v >= 0;
const ms = (v) => Number.isSafeInteger(v) && v >= MIN_MS && v <= Date.now() + 86400000;
const rules = {
  money: (v) => (fen(v) ? null : 'must be integer fen (no float, no string, not negative)'),
  moneyOrNull: (v) => (v === null || v === undefined || fen(v) ? null : 'must be integer fen or null'),
  time: (v) => (ms(v) ? null : 'must be epoch milliseconds (an integer, not seconds, not a date string)'),
  timeOrNull: (v) => (v === null || v === undefined || ms(v) ? null : 'must be epoch milliseconds or null'),
  text: (v) => (typeof v === 'string' && v.trim() !== '' ? null : 'must be a non-empty string'),
  textOrNull: (v) => (v === null || v === undefined || typeof v === 'string' ? null : 'must be a string or null'),
  sku: (v) => (typeof v === 'string' && /^[^\s:]+$/.test(v) ? null : 'must be a non-empty string without whitespace or colon'),
  count: (v) => (Number.isSafeInteger(v) && v >= 0 ? null : 'must be an integer >= 0'),
  positive: (v) => (Number.isSafeInteger(v) && v >= 1 ? null : 'must be an integer >= 1'),
  boolOrNull: (v) => (v === null || v === undefined || typeof v === 'boolean' ? null : 'must be a boolean'),
  idText: (v) => ((typeof v === 'string' && v !== '') || Number.isSafeInteger(v) ? null : 'must be a non-empty string'),
};

function problems(obj, schema, prefix = '') {
  if (!isObj(obj)) return [`${prefix || 'record'} is not an object`];
  const out = [];
  for (const [field, rule] of Object.entries(schema)) {
    const why = rules[rule](obj[field]);
    if (why) out.push(`${prefix}${field} ${why}, got ${show(obj[field])}`);
  }
  return out;
}

/** Reports every bad record (the service refuses exactly these), at most MAX_DETAILS lines of detail. */
function checkRecords(name, list, idField, check) {
  if (!list.length) return console.log(`INFO  ${name}: no records to check`);
  const bad = [];
  list.forEach((rec, i) => {
    const p = check(rec);
    if (p.length) bad.push(`#${i}${isObj(rec) && rec[idField] !== undefined ? ` (${rec[idField]})` : ''}: ${p.join('; ')}`);
  });
  if (!bad.length) return pass(`${name}: every record conforms`);
  fail(name, `${bad.length} of ${list.length} records would be refused`);
  bad.slice(0, MAX_DETAILS).forEach((b) => console.log(`      ${scrub(b)}`));
  if (bad.length > MAX_DETAILS) console.log(`      ... and ${bad.length - MAX_DETAILS} more`);
}

async function checkAuth(path) {
  const r = await call('GET', path, { auth: `wrong-${Date.now()}` });
  const name = 'a wrong token is refused with 401/403 {ok:false, reason}';
  if (r.networkError) return fail(name, r.networkError);
  if (r.status !== 401 && r.status !== 403) return fail(name, `got HTTP ${r.status}`);
  if (!isObj(r.json) || r.json.ok !== false || typeof r.json.reason !== 'string') return fail(name, `body ${show(r.json)}`);
  pass(name);
}

async function checkErrorShape(path, what) {
  const r = await call('GET', path);
  const name = `${what} is answered 4xx {ok:false, reason}`;
  if (r.networkError) return fail(name, r.networkError);
  if (r.status < 400 || r.status >= 500) return fail(name, `got HTTP ${r.status} ${show(r.json)}`);
  if (!isObj(r.json) || r.json.ok !== false || typeof r.json.reason !== 'string') return fail(name, `body ${show(r.json)}`);
  pass(name);
}

// ---- machine role ----

const ITEM = { vendorSku: 'sku', title: 'text', priceFen: 'money', stock: 'count' };
const RECORD = { orderNo: 'idText', locationId: 'text', totalFen: 'money', createdAt: 'time', takenAt: 'timeOrNull', settledAt: 'timeOrNull', updatedAt: 'timeOrNull', finalized: 'boolOrNull', state: 'textOrNull' };
const LINE = { vendorSku: 'sku', quantity: 'positive', priceFen: 'money', status: 'text', costFen: 'moneyOrNull' };

function recordProblems(rec) {
  const out = problems(rec, RECORD);
  if (isObj(rec) && rec.lines !== undefined) {
    if (!Array.isArray(rec.lines)) out.push('lines must be an array');
    else rec.lines.forEach((l, i) => out.push(...problems(l, LINE, `lines[${i}].`)));
  }
  return out;
}

async function ledger(fromMs, toMs, page, size) {
  return call('GET', `/ledger?fromMs=${fromMs}&toMs=${toMs}&page=${page}&size=${size}&by=updated`);
}

async function checkMachine() {
  const loc = encodeURIComponent(args.location);
  await checkAuth(`/inventory?locationId=${loc}`);
  const items = expectList('GET /inventory', await call('GET', `/inventory?locationId=${loc}`), 'items');
  if (items) {
    if (!items.length) warn('GET /inventory', 'no items: is the location id the registered one?');
    checkRecords('GET /inventory items', items, 'vendorSku', (it) => {
      const p = problems(it, ITEM);
      if (isObj(it) && it.capacity !== undefined && it.capacity !== null && rules.count(it.capacity)) p.push(`capacity ${rules.count(it.capacity)}`);
      return p;
    });
    const prices = items.filter(isObj).map((i) => i.priceFen).filter(fen);
    if (prices.length && prices.every((p) => p > 0 && p < 50)) warn('GET /inventory', 'every price is below 0.50 yuan: are these yuan instead of fen?');
    const noBarcode = items.filter((i) => isObj(i) && !i.barcode).length;
    if (noBarcode) warn('GET /inventory', `${noBarcode} items without barcode (strongly recommended)`);
    const skus = items.filter(isObj).map((i) => i.vendorSku);
    if (new Set(skus).size !== skus.length) fail('GET /inventory', 'vendorSku values repeat within one machine');
  }

  const now = Date.now();
  const r = await ledger(now - 3 * 3600000, now, 1, 100);
  const records = expectList('GET /ledger (last 3 hours, by=updated)', r, 'records');
  if (!records) return;
  if (typeof r.json.hasMore !== 'boolean') warn('GET /ledger', 'no hasMore: the service then treats a page shorter than size as the last');
  let sample = records;
  if (!sample.length) {
    const week = await ledger(now - 7 * 86400000, now, 1, 100);
    sample = expectList('GET /ledger (last 7 days, no sales in the last 3 hours)', week, 'records') || [];
  }
  checkRecords('GET /ledger records', sample, 'orderNo', recordProblems);
  const outside = sample.filter((x) => isObj(x) && ms(x.updatedAt) && (x.updatedAt < now - 7 * 86400000 || x.updatedAt > now + 60000));
  if (outside.length) warn('GET /ledger', `${outside.length} records have updatedAt outside the window asked for (by=updated)`);
  const states = sample.filter((x) => isObj(x) && typeof x.state === 'string' && !TRADE_STATES.includes(x.state));
  if (states.length) warn('GET /ledger', `${states.length} records have a state outside ${TRADE_STATES.join('|')} (put your own word in stateRaw)`);
  if (sample.length >= 2) {
    const from = now - 7 * 86400000;
    const [p1, p2] = [await ledger(from, now, 1, 1), await ledger(from, now, 2, 1)];
    const a = isObj(p1.json) && Array.isArray(p1.json.records) ? p1.json.records : [];
    const b = isObj(p2.json) && Array.isArray(p2.json.records) ? p2.json.records : [];
    if (a.length === 1 && b.length === 1 && a[0].orderNo !== b[0].orderNo) pass('GET /ledger pages (size=1: page 1 and page 2 differ)');
    else fail('GET /ledger pages', `size=1 gave ${a.length} and ${b.length} records${a[0] && b[0] ? ` (${a[0].orderNo}, ${b[0].orderNo})` : ''}`);
  }
}

// ---- supply role ----

const PRODUCT = { vendorSku: 'sku', title: 'text', packSize: 'positive', packPriceFen: 'money', eachPriceFen: 'money', stock: 'count', eachPriceDerived: 'boolOrNull', costFen: 'moneyOrNull' };
const BARCODE = /(?<!\d)(\d{14}|\d{13}|\d{12}|\d{8})(?!\d)/;

async function checkSupply() {
  await checkAuth('/catalog');
  const products = expectList('GET /catalog', await call('GET', '/catalog'), 'products');
  if (products) {
    if (!products.length) warn('GET /catalog', 'the catalog is empty');
    checkRecords('GET /catalog products', products, 'vendorSku', (p) => {
      const out = problems(p, PRODUCT);
      if (isObj(p) && p.sites !== undefined && p.sites !== null && !Array.isArray(p.sites)) out.push('sites must be an array');
      return out;
    });
    const ok = products.filter((p) => isObj(p) && !problems(p, PRODUCT).length);
    const single = ok.filter((p) => p.packSize === 1 && p.packPriceFen !== p.eachPriceFen);
    if (single.length) warn('GET /catalog', `${single.length} products with packSize 1 have packPriceFen != eachPriceFen`);
    const derived = ok.filter((p) => p.eachPriceDerived === true && p.eachPriceFen * p.packSize !== p.packPriceFen);
    if (derived.length) warn('GET /catalog', `${derived.length} products with eachPriceDerived have eachPriceFen x packSize != packPriceFen`);
    const sameCost = ok.filter((p) => p.costFen !== null && p.costFen !== undefined && p.costFen === p.eachPriceFen);
    if (sameCost.length) warn('GET /catalog', `${sameCost.length} products send costFen equal to the price (send null unless it is a real, different cost)`);
    const noBarcode = ok.filter((p) => !(typeof p.barcode === 'string' && p.barcode) && !BARCODE.test(`${p.spec || ''} ${p.title}`));
    if (noBarcode.length) warn('GET /catalog', `${noBarcode.length} products have no barcode in barcode, spec or title (recommended)`);
  }
  await checkErrorShape(`/orders/${encodeURIComponent(`check-partner-unknown-${Date.now()}`)}`, 'GET /orders/{unknown ref}');
  if (args['place-test-order']) await placeTestOrder(products || []);
  else console.log('INFO  POST /orders not called (it places a real purchase); pass --place-test-order to include it');
}

async function placeTestOrder(products) {
  const product = args.sku ? products.find((p) => isObj(p) && p.vendorSku === args.sku) : products.find((p) => isObj(p) && fen(p.stock) && p.stock > 0);
  if (!product) return fail('POST /orders', args.sku ? `--sku ${args.sku} is not in the catalog` : 'no product with stock to order');
  const ref = `check-partner-${Date.now()}`;
  const body = { ref, lines: [{ vendorSku: product.vendorSku, quantity: 1, unit: args.unit || 'each' }], fulfillment: { method: args.method || 'pickup' } };
  console.log(`INFO  placing a REAL test order: ref ${ref}, 1 ${body.lines[0].unit} of ${product.vendorSku}, ${body.fulfillment.method}`);
  const first = await call('POST', '/orders', { body });
  if (first.networkError || first.status !== 200 || !isObj(first.json)) return fail('POST /orders', first.networkError || `HTTP ${first.status} ${show(first.json)}`);
  const p = problems(first.json, { ref: 'text', state: 'text', rawStatus: 'textOrNull' });
  if (first.json.ref !== ref) p.push(`ref must echo ${ref}`);
  p.length ? fail('POST /orders answer', p.join('; ')) : pass('POST /orders answer {ref, orderId, state, rawStatus}');
  const again = await call('POST', '/orders', { body });
  if (isObj(again.json) && again.status === 200 && again.json.ref === ref && again.json.orderId === first.json.orderId) pass('POST /orders is idempotent by ref (same ref, same order)');
  else fail('POST /orders idempotency', `the repeat answered HTTP ${again.status} ${show(again.json)}`);
  const st = await call('GET', `/orders/${encodeURIComponent(ref)}`);
  if (st.status !== 200 || !isObj(st.json)) return fail('GET /orders/{ref}', st.networkError || `HTTP ${st.status} ${show(st.json)}`);
  const sp = problems(st.json, { ref: 'text', state: 'text', rawStatus: 'textOrNull' });
  if (!ORDER_STATES.includes(st.json.state)) sp.push(`state must be one of ${ORDER_STATES.join('|')}, got ${show(st.json.state)}`);
  if (st.json.logistics !== undefined && !Array.isArray(st.json.logistics)) sp.push('logistics must be an array');
  else (st.json.logistics || []).forEach((l, i) => sp.push(...problems(l, { updatedAt: 'timeOrNull' }, `logistics[${i}].`)));
  sp.length ? fail('GET /orders/{ref}', sp.join('; ')) : pass('GET /orders/{ref} answers {ref, state, rawStatus, logistics?}');
}

(role === 'machine' ? checkMachine() : checkSupply())
  .then(() => {
    console.log(`${failed ? 'FAILED' : 'OK'}: ${passed} passed, ${failed} failed`);
    process.exit(failed ? 1 : 0);
  })
  .catch((e) => {
    console.error(`check-partner crashed: ${scrub(e && e.stack ? e.stack : e)}`);
    process.exit(1);
  });
