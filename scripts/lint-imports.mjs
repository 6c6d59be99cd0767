#!/usr/bin/env node
// `npm run lint:imports`: the import rules of .dependency-cruiser.cjs over src/, each violation with its rule's comment.
// `--json` prints the violations as JSON instead (test/unit/architecture/import-rules.spec.ts reads that).
// dependency-cruiser's own CLI refuses Node 20 by its engines field; its API runs there, so this calls the API.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, format } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const config = createRequire(import.meta.url)(path.join(root, '.dependency-cruiser.cjs'));
const tsConfig = extractTSConfig(path.join(root, config.options.tsConfig.fileName));

const result = await cruise(
  ['src'],
  { ...config.options, ruleSet: { forbidden: config.forbidden }, validate: true, outputType: 'json' },
  {},
  { tsConfig },
);
const { summary } = JSON.parse(result.output);
const violations = summary.violations.map((v) => ({
  rule: v.rule.name,
  from: v.from,
  to: v.cycle ? v.cycle.map((c) => c.name ?? c).join(' → ') : v.to,
  comment: config.forbidden.find((r) => r.name === v.rule.name)?.comment ?? '',
}));

if (process.argv.includes('--json')) {
  process.stdout.write(JSON.stringify({ cruised: summary.totalCruised, violations }));
} else {
  // dependency-cruiser's own long error report: each violation with its rule's comment.
  process.stdout.write((await format(JSON.parse(result.output), { outputType: 'err-long' })).output);
}
process.exitCode = violations.length ? 1 : 0;
