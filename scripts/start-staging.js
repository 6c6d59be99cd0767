#!/usr/bin/env node
// `npm start`: the out-of-the-box staging service. Builds if needed, then runs dist/main.js with staging defaults:
// embedded database in ./data, simulated partners, demo guard rules, and a demo token printed here (never logged).
const { spawnSync, spawn } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { SERVICE_NODE_FLAGS } = require('./node-flags');
const { lineReader } = require('./log-format');

const root = path.join(__dirname, '..');
const entry = path.join(root, 'dist', 'main.js');

function newestMtime(dir) {
  let newest = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : fs.statSync(p).mtimeMs);
  }
  return newest;
}

const stale =
  !fs.existsSync(entry) ||
  !fs.existsSync(path.join(root, 'dist', 'console', 'index.html')) ||
  Math.max(
    ...['src', 'generated', 'migrations', path.join('console', 'src')].map((d) => newestMtime(path.join(root, d))),
  ) >
    fs.statSync(entry).mtimeMs;
if (stale) {
  console.log('building…');
  const r = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const env = { ...process.env };
env.SERVICE_ENV ??= 'staging';
env.SERVICE_AUTH_TOKEN ??= `demo-${randomBytes(12).toString('hex')}`;
env.SERVICE_GUARDS ??= fs.readFileSync(path.join(root, 'config', 'guards.demo.json'), 'utf8');
env.SERVICE_DATA_DIR ??= path.join(root, 'data');
env.LOG_LEVEL ??= 'info';
env.SERVICE_STAGING_SEED ??= 'on'; // register the simulated machines and sync them when the roster is empty
const port = env.PORT ?? '8080';
const host = env.HOST ?? '0.0.0.0';
const shown = host === '0.0.0.0' ? 'localhost' : host;

// On a terminal the JSON log lines are shown one readable line each (SERVICE_LOG_FORMAT=json keeps JSON); the URL
// and the token are printed once the service listens, after its few boot lines, so they are not scrolled away.
const pretty = (env.SERVICE_LOG_FORMAT ?? (process.stdout.isTTY ? 'pretty' : 'json')) === 'pretty';
delete env.SERVICE_LOG_FORMAT;
const banner = () => {
  process.stdout.write(
    [
      '',
      `staging service on http://${shown}:${port}  (discovery: http://${shown}:${port}/.well-known/ucp)`,
      `operator console: http://${shown}:${port}/console/  (sign in with the demo token)`,
      `demo token: ${env.SERVICE_AUTH_TOKEN}`,
      `try: curl -H "Authorization: Bearer ${env.SERVICE_AUTH_TOKEN}" http://${shown}:${port}/ucp/v1/namespaces`,
      '',
    ].join('\n') + '\n',
  );
};
console.log(`staging service starting on port ${port}…`);

const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, entry], { cwd: root, env, stdio: ['inherit', 'pipe', 'inherit'] });
const reader = lineReader({ pretty, colorize: pretty && process.stdout.hasColors?.(), write: (s) => process.stdout.write(s), onListening: banner });
child.stdout.setEncoding('utf8');
child.stdout.on('data', (chunk) => reader.push(chunk));
child.stdout.on('end', () => reader.end());
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('close', (code, signal) => process.exit(code ?? (signal ? 1 : 0))); // after its last output line
