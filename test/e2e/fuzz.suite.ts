/**
 * Issue 11: a fuzz across every operation and admin route over HTTP (test/fuzz/). The normal run sends 400 requests
 * in four files of 100, each on a world of its own with its own fixed seed (SEEDS; a file each stays under 20 s, the
 * world's setup being a good part of a file's time): fuzz.e2e-spec.ts (the fuzz's original seed, and the test that the
 * checks can fail), fuzz-second-seed, fuzz-third-seed and fuzz-fourth-seed.e2e-spec.ts.
 * `npm run fuzz -- --runs 10000 --seed N` runs fuzz.e2e-spec.ts with more (FUZZ_RUNS, FUZZ_SEED).
 */
import { OPERATIONS, World } from '../fuzz/operations';
import { runFuzz, runOne, startWorld, stopWorld, summarize } from '../fuzz/harness';

/** The normal run's seeds, one per file: 20261123 (the original seed) and three chosen for the split. */
export const SEEDS = [20261123, 20261124, 20261125, 20261126] as const;
/** The normal run's requests per file (4 × 100 = 400): each covers every operation (the plan sends each one first). */
export const RUNS_PER_FILE = 100;

/** `runs` mutated requests drawn from `seed` on a world of their own; `more` adds tests on the same world. */
export function fuzzSuite(seed: number, runs: number, more?: (world: () => World) => void): void {
  describe(`fuzz: ${runs} mutated requests, seed ${seed}`, () => {
    let w: World;
    beforeAll(async () => {
      w = await startWorld();
    }, 120_000);
    afterAll(async () => {
      if (w) await stopWorld(w);
    });

    it('no 5xx, always the ucp envelope, never a stack trace, nothing spent or written without confirm', async () => {
      const started = Date.now();
      const { findings, byOp } = await runFuzz(w, seed, runs, (n) => process.stdout.write(`fuzz: ${n}/${runs} requests, ${Math.round((Date.now() - started) / 1000)} s\n`));
      if (process.env.FUZZ_REPORT) process.stdout.write(`fuzz: ${runs} requests, seed ${seed}, ${findings.length} findings, ${w.setupFailures ?? 0} not sent, ${Math.round((Date.now() - started) / 1000)} s\n`);
      // Every operation was exercised (so a route cannot silently drop out of the fuzz): the plan sends each one first,
      // so each file of the normal run covers them all; a shorter FUZZ_RUNS of `npm run fuzz` may not.
      if (!process.env.FUZZ_RUNS || runs >= 300) expect(OPERATIONS.filter((o) => !byOp[o.name]).map((o) => o.name)).toEqual([]);
      // Almost every planned request was sent (a request whose resources could not be made is not sent).
      expect(w.setupFailures ?? 0).toBeLessThanOrEqual(Math.ceil(runs / 100));
      if (findings.length) throw new Error(`${findings.length} findings (seed ${seed}):\n${summarize(findings)}`);
    }, Math.max(300_000, runs * 300));

    more?.(() => w);
  });
}

/** The checks themselves can fail (run once, by fuzz.e2e-spec.ts, on its world). */
export function theChecksCanFail(world: () => World): void {
  it('the checks can fail: a 5xx, a supplier order from a request that is not a confirmed complete, and an undocumented refusal are findings', async () => {
    const w = world();
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
}

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
