#!/usr/bin/env node
// `npm run fuzz -- --runs 10000 --seed 42`: the API fuzz (test/e2e/fuzz.e2e-spec.ts, harness in test/fuzz/) with more
// requests than the normal test run sends (400: four files of 100, seeds 20261123 to 20261126). Needs the test
// PostgreSQL (see README). Prints the seed, the number of requests and the findings grouped by cause; exits 1 when
// there is any.
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : dflt;
};
const runs = Number(opt('runs', '10000'));
const seed = Number(opt('seed', String(Date.now() % 2 ** 31)));
if (!Number.isSafeInteger(runs) || runs < 1 || !Number.isSafeInteger(seed)) {
  console.error('usage: npm run fuzz -- [--runs N] [--seed S]');
  process.exit(2);
}
console.log(`fuzz: ${runs} requests, seed ${seed}`);
const r = spawnSync(
  process.execPath,
  ['--experimental-vm-modules', path.join(__dirname, '..', 'node_modules', 'jest', 'bin', 'jest.js'), '--maxWorkers=1', 'test/e2e/fuzz.e2e-spec.ts'],
  { stdio: 'inherit', cwd: path.join(__dirname, '..'), env: { ...process.env, FUZZ_RUNS: String(runs), FUZZ_SEED: String(seed), FUZZ_REPORT: '1', NODE_NO_WARNINGS: '1' } },
);
process.exit(r.status ?? 1);
