#!/usr/bin/env node
// CI check of the published API description (`npm run api:check`), each step timed:
//  1. generated/openapi-metadata.ts is what the Swagger plugin generates from the code now (a changed DTO or response class
//     without `npm run openapi:write` fails here; the e2e test then compares docs/openapi.json with the document the
//     app builds from that metadata, and another validates real answers against it);
//  2. Redocly lints docs/openapi.json with the recommended rules: 0 errors;
//  3. the TypeScript client types regenerated from docs/openapi.json equal the committed clients/typescript/schema.d.ts;
//  4. the client and its example type-check under --strict.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const root = path.join(__dirname, '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
const skipMetadata = process.argv.includes('--skip-metadata');

function step(name, fn) {
  const t0 = Date.now();
  try {
    fn();
  } catch (err) {
    console.error(`✗ ${name}: ${err.message.split('\n')[0]}`);
    process.exit(1);
  }
  console.log(`✓ ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
}

const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] }).toString();

if (!skipMetadata) step('openapi metadata matches the code', () => run(process.execPath, [path.join(__dirname, 'generate-openapi-metadata.js'), '--check']));

step('redocly lint (recommended): 0 errors', () => {
  try {
    run(bin('redocly'), ['lint', 'docs/openapi.json', '--config', 'redocly.yaml', '--extends', 'recommended', '--format', 'summary']);
  } catch (err) {
    throw new Error(`${err.stdout ?? ''}${err.stderr ?? ''}`.trim().split('\n').slice(-8).join(' | ') || err.message);
  }
});

step('client types are generated from docs/openapi.json', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vending-client-'));
  try {
    const out = path.join(dir, 'schema.d.ts');
    run(bin('openapi-typescript'), ['docs/openapi.json', '-o', out]);
    const committed = path.join(root, 'clients', 'typescript', 'schema.d.ts');
    if (!fs.existsSync(committed) || fs.readFileSync(out, 'utf8') !== fs.readFileSync(committed, 'utf8')) {
      throw new Error('clients/typescript/schema.d.ts is stale: run `npm run client:generate` and commit it');
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

step('client and example type-check under --strict', () => {
  try {
    run(bin('tsc'), ['-p', 'clients/typescript/tsconfig.json', '--strict', '--noEmit']);
  } catch (err) {
    throw new Error(`${err.stdout ?? ''}`.trim().split('\n').slice(0, 10).join(' | ') || err.message);
  }
});
