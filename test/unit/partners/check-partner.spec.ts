/** scripts/check-partner.js run as a partner would run it, against the fake partner server. */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { FakePartner, startFakePartner } from '../../partners/fake-partner-server';

const SCRIPT = join(__dirname, '../../../scripts/check-partner.js');
const TOKEN = 'chk-token-42';

function run(args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [SCRIPT, ...args], { timeout: 20000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, out: stdout + stderr });
    });
  });
}

describe('scripts/check-partner.js', () => {
  let p: FakePartner;
  const now = Date.now();

  beforeEach(async () => {
    p = await startFakePartner({ token: TOKEN });
    p.state.inventory['loc-7'] = [
      { vendorSku: 'A1', title: 'Cola can 330ml', priceFen: 350, stock: 4, barcode: '6901234567892', slotId: 'A01', capacity: 10 },
      { vendorSku: 'B2', title: 'Water 550ml', priceFen: 200, stock: 0, barcode: '6921168509256' },
    ];
    p.state.ledger = [
      { orderNo: 'O1', locationId: 'loc-7', totalFen: 350, createdAt: now - 3600000, takenAt: now - 3590000, updatedAt: now - 3000000, state: 'settled', lines: [{ vendorSku: 'A1', quantity: 1, priceFen: 350, status: 'paid', costFen: null }] },
      { orderNo: 'O2', locationId: 'loc-7', totalFen: 400, createdAt: now - 600000, takenAt: null, updatedAt: now - 500000, state: 'in_progress', lines: [{ vendorSku: 'B2', quantity: 2, priceFen: 200, status: 'paid', costFen: 120 }] },
    ];
    p.state.catalog = [
      { vendorSku: 'A1', title: 'Cola can 330ml x24', packSize: 24, packPriceFen: 4800, eachPriceFen: 200, eachPriceDerived: true, stock: 30, spec: 'EAN 6901234567892' },
      { vendorSku: 'B2', title: 'Water 550ml', packSize: 1, packPriceFen: 150, eachPriceFen: 150, stock: 100, barcode: '6921168509256', costFen: 90 },
    ];
  });

  afterEach(() => p.close());

  it('passes a conforming machine adapter and never writes anything', async () => {
    const r = await run(['--base-url', p.url, '--token', TOKEN, '--role', 'machine', '--location', 'loc-7']);
    expect(r.out).not.toContain('FAIL');
    expect(r.out).toContain('PASS  GET /inventory items: every record conforms');
    expect(r.out).toContain('PASS  GET /ledger records: every record conforms');
    expect(r.code).toBe(0);
    expect(p.requests.every((q) => q.method === 'GET')).toBe(true);
    expect(r.out).not.toContain(TOKEN);
  });

  it('fails a machine adapter that sends a float price, naming the record', async () => {
    (p.state.inventory['loc-7'][1] as Record<string, unknown>).priceFen = 3.5;
    const r = await run(['--base-url', p.url, '--token', TOKEN, '--role', 'machine', '--location', 'loc-7']);
    expect(r.code).not.toBe(0);
    expect(r.out).toMatch(/FAIL {2}GET \/inventory items: 1 of 2 records would be refused/);
    expect(r.out).toContain('#1 (B2): priceFen must be integer fen');
  });

  it('fails a ledger with epoch seconds and string amounts', async () => {
    p.state.ledger.push({ orderNo: 'O3', locationId: 'loc-7', totalFen: '350', createdAt: Math.floor(now / 1000), updatedAt: now - 100, lines: [] });
    const r = await run(['--base-url', p.url, '--token', TOKEN, '--role', 'machine', '--location', 'loc-7']);
    expect(r.code).toBe(1);
    expect(r.out).toContain('(O3): totalFen must be integer fen');
    expect(r.out).toContain('createdAt must be epoch milliseconds');
  });

  it('passes a conforming supplier without calling POST /orders unless asked', async () => {
    const r = await run(['--base-url', p.url, '--token', TOKEN, '--role', 'supply']);
    expect(r.out).not.toContain('FAIL');
    expect(r.code).toBe(0);
    expect(p.requestsTo('POST /orders')).toHaveLength(0);

    const withOrder = await run(['--base-url', p.url, '--token', TOKEN, '--role', 'supply', '--place-test-order', '--sku', 'B2']);
    expect(withOrder.out).toContain('PASS  POST /orders is idempotent by ref');
    expect(withOrder.code).toBe(0);
    expect(Object.keys(p.state.orders)).toHaveLength(1);
  });

  it('fails a supplier with a float box price, and refuses to run without its arguments', async () => {
    (p.state.catalog[0] as Record<string, unknown>).packPriceFen = 48.5;
    const r = await run(['--base-url', p.url, '--token', TOKEN, '--role', 'supply']);
    expect(r.code).toBe(1);
    expect(r.out).toContain('packPriceFen must be integer fen');
    expect((await run(['--base-url', p.url, '--token', TOKEN, '--role', 'machine'])).code).toBe(2);
  });
});
