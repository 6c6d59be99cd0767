#!/usr/bin/env node
// `npm test`: every tier (unit, database, e2e on real PostgreSQL and on the embedded database), then one plain
// line "N passed, N failed" for CI. Extra arguments go to jest.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

// Inside the checkout, in the ignored test-output/ (a fresh clone stays clean after `npm test`).
const outDir = path.join(__dirname, '..', 'test-output');
fs.mkdirSync(outDir, { recursive: true });
const out = path.join(outDir, `jest-results-${process.pid}.json`);
const args = [
  '--experimental-vm-modules',
  path.join(__dirname, '..', 'node_modules', 'jest', 'bin', 'jest.js'),
  '--maxWorkers=2',
  '--json',
  `--outputFile=${out}`,
  ...process.argv.slice(2),
];
const r = spawnSync(process.execPath, args, { stdio: 'inherit', env: { ...process.env, NODE_NO_WARNINGS: '1' } });
let passed = 0;
let failed = 0;
try {
  const res = JSON.parse(fs.readFileSync(out, 'utf8'));
  passed = res.numPassedTests;
  failed = res.numFailedTests + (res.numRuntimeErrorTestSuites ?? 0);
  reportTime(res);
  fs.rmSync(out, { force: true });
} catch {
  failed = Math.max(failed, 1); // jest did not finish: count it as a failure, never as green
}
console.log(`${passed} passed, ${failed} failed`);

/**
 * The time budget, reported (never failed on: a loaded machine is not a broken test): the run's jest time, and every
 * file other than the browser and soak tiers that took over 20 s in this run.
 */
function reportTime(res) {
  const seconds = (ms) => (ms / 1000).toFixed(1);
  const ends = res.testResults.map((t) => t.endTime).filter(Number.isFinite);
  if (ends.length) console.log(`jest time ${seconds(Math.max(...ends) - res.startTime)} s over ${res.testResults.length} files`);
  const slow = res.testResults
    .filter((t) => !/\.(browser|soak)-spec\.ts$/.test(t.name) && t.endTime - t.startTime > 20000)
    .sort((a, b) => b.endTime - b.startTime - (a.endTime - a.startTime));
  for (const t of slow) console.log(`over 20 s: ${path.relative(path.join(__dirname, '..'), t.name)} ${seconds(t.endTime - t.startTime)} s`);
}
process.exit(r.status === 0 && failed === 0 ? 0 : 1);
