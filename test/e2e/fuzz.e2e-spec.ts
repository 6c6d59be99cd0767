/**
 * Issue 11: a fuzz across every operation and admin route over HTTP (test/fuzz/). The normal run sends a few hundred
 * requests with a fixed seed; `npm run fuzz -- --runs 10000 --seed N` runs more (FUZZ_RUNS, FUZZ_SEED).
 */
import { OPERATIONS, World } from '../fuzz/operations';
import { runFuzz, startWorld, stopWorld, summarize } from '../fuzz/harness';

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
    if (process.env.FUZZ_REPORT) process.stdout.write(`fuzz: ${RUNS} requests, seed ${SEED}, ${findings.length} findings, ${Math.round((Date.now() - started) / 1000)} s\n`);
    // Every operation was exercised (so a route cannot silently drop out of the fuzz).
    if (RUNS >= 300) expect(OPERATIONS.filter((o) => !byOp[o.name]).map((o) => o.name)).toEqual([]);
    if (findings.length) throw new Error(`${findings.length} findings (seed ${SEED}):\n${summarize(findings)}`);
  }, Math.max(120_000, RUNS * 200));
});
