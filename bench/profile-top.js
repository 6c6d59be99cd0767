#!/usr/bin/env node
// Summarises a V8 .cpuprofile (node --cpu-prof): self time by function and by package, top N.
// Usage: node bench/profile-top.js FILE.cpuprofile [--top 30]
const fs = require('node:fs');

const file = process.argv[2];
const top = Number(process.argv.includes('--top') ? process.argv[process.argv.indexOf('--top') + 1] : 30);
const p = JSON.parse(fs.readFileSync(file, 'utf8'));
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const self = new Map();
const dt = p.timeDeltas;
for (let i = 0; i < p.samples.length; i++) self.set(p.samples[i], (self.get(p.samples[i]) ?? 0) + (dt[i] ?? 0));
const total = [...self.values()].reduce((a, b) => a + b, 0);
const fn = new Map();
const pkg = new Map();
for (const [id, us] of self) {
  const cf = byId.get(id).callFrame;
  const url = cf.url.replace(/^file:\/\//, '');
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  const where = m ? m[1] : url.includes('/dist/') ? 'service (dist)' : url.startsWith('node:') ? url : url ? 'other' : `(${cf.functionName || 'native'})`;
  const key = `${cf.functionName || '(anonymous)'}  ${url.split('/').slice(-2).join('/')}:${cf.lineNumber + 1}`;
  fn.set(key, (fn.get(key) ?? 0) + us);
  pkg.set(where, (pkg.get(where) ?? 0) + us);
}
const pct = (us) => `${((100 * us) / total).toFixed(1).padStart(5)}%`;
console.log(`total ${(total / 1e6).toFixed(2)} s sampled\n\nby package / area:`);
for (const [k, v] of [...pkg].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`  ${pct(v)}  ${k}`);
console.log('\nby function (self):');
for (const [k, v] of [...fn].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${pct(v)}  ${k}`);
