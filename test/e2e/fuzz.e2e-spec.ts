/**
 * Issue 11: a fuzz across every operation and admin route over HTTP (test/fuzz/). The normal run sends a few hundred
 * requests with a fixed seed; `npm run fuzz -- --runs 10000 --seed N` runs more (FUZZ_RUNS, FUZZ_SEED).
 */
import { OPERATIONS, World } from '../fuzz/operations';
import { runFuzz, runOne, startWorld, stopWorld, summarize } from '../fuzz/harness';

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 400);

describe(`fuzz: ${RUNS} mutated requests, seed ${SEED}`, () => {
  let w: World;
  beforeAll(async () => {
    w = await startWorld();
  }, 120_000);
  afterAll(async () => {
    if (w) await stopWorld(w);
  });

  it('no 5xx, always the ucp envelope, never a stack trace, nothing spent or written without confirm', async () => {
    const started = Date.now();
    const { findings, byOp } = await runFuzz(w, SEED, RUNS, (n) => process.stdout.write(`fuzz: ${n}/${RUNS} requests, ${Math.round((Date.now() - started) / 1000)} s\n`));
    if (process.env.FUZZ_REPORT) process.stdout.write(`fuzz: ${RUNS} requests, seed ${SEED}, ${findings.length} findings, ${w.setupFailures ?? 0} not sent, ${Math.round((Date.now() - started) / 1000)} s\n`);
    // Every operation was exercised (so a route cannot silently drop out of the fuzz).
    if (RUNS >= 300) expect(OPERATIONS.filter((o) => !byOp[o.name]).map((o) => o.name)).toEqual([]);
    // Almost every planned request was sent (a request whose resources could not be made is not sent).
    expect(w.setupFailures ?? 0).toBeLessThanOrEqual(Math.ceil(RUNS / 100));
    if (findings.length) throw new Error(`${findings.length} findings (seed ${SEED}):\n${summarize(findings)}`);
  }, Math.max(300_000, RUNS * 300));

  it('the checks can fail: a 5xx, a supplier order from a request that is not a confirmed complete, and an undocumented refusal are findings', async () => {
    const complete = OPERATIONS.find((o) => o.name === 'checkout.complete')!;
    expect(await runOne(w, 1, complete, { kind: 'none' })).toEqual([]);
    // The same request under another operation's name: the order it places is "without confirm" for the check.
    const found = await runOne(w, 2, { ...complete, name: 'checkout.get' }, { kind: 'none' });
    expect(found.map((f) => f.what)).toEqual(['a supplier order without confirm']);
    // The same over MCP (issue 18): a confirmed complete_checkout tool call is clean, under another name it is a finding.
    const mcpComplete = OPERATIONS.find((o) => o.name === 'mcp.complete_checkout')!;
    expect(await runOne(w, 3, mcpComplete, { kind: 'none' })).toEqual([]);
    expect((await runOne(w, 4, { ...mcpComplete, name: 'mcp.list_orders' }, { kind: 'none' })).map((f) => f.what)).toEqual(['a supplier order without confirm']);
    // A refusal must be a status and a code the operation documents: approval_required is a 409, never a 400.
    const refusal = { ucp: { version: '2026-08-25', status: 'error' }, messages: [{ type: 'error', code: 'approval_required', severity: 'requires_buyer_review', path: '$', content: 'x', content_type: 'plain' }] };
    expect(w.api!.problems('POST', '/ucp/v1/checkout-sessions/{session}/complete', { status: 400, body: refusal })).toEqual([
      'POST /ucp/v1/checkout-sessions/{session}/complete 400 answered approval_required, which its description does not list',
    ]);
    expect(w.api!.problems('POST', '/ucp/v1/checkout-sessions/{session}/complete', { status: 409, body: refusal })).toEqual([]);
    const purchase = OPERATIONS.find((o) => o.name === 'orders.purchase')!;
    w.supplier.fault('GET /orders/:ref', { status: 503 });
    try {
      const withNothingStored = { ...purchase, prepare: async () => ({ order: await unstoredPurchase(w) }) };
      expect((await runOne(w, 3, withNothingStored, { kind: 'none' })).map((f) => f.what)).toEqual(['HTTP 502']);
    } finally {
      w.supplier.clearFaults();
    }
  });
});

/** A completed purchase whose supplier status is not stored: unreadable at the supplier, it is a 502. */
async function unstoredPurchase(w: World): Promise<string> {
  const { Client } = await import('pg');
  const c = new Client({ connectionString: w.t.databaseUrl! });
  await c.connect();
  try {
    await c.query(`UPDATE checkout_sessions SET supplier_state = NULL WHERE id = $1`, [w.purchaseId]);
  } finally {
    await c.end();
  }
  return w.purchaseId;
}
