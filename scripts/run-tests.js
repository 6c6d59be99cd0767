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
  fs.rmSync(out, { force: true });
} catch {
  failed = Math.max(failed, 1); // jest did not finish: count it as a failure, never as green
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(r.status === 0 && failed === 0 ? 0 : 1);
