import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { compiledService, waitForLine } from '../support/compiled-service';

/**
 * The real entry point as `npm start` runs it: the service as `npm run build` compiles it
 * (test/support/compiled-service.ts, into .test-dist/ so a running dist/ is untouched), `node main.js` behind
 * scripts/log-format.js. The other boots are boot.e2e-spec.ts and boot-data-dir-*.e2e-spec.ts.
 */
const root = path.join(__dirname, '..', '..');
const out = path.join(root, '.test-dist', 'boot-npm-start');

describe('node dist/main.js as npm start runs it', () => {
  beforeAll(() => compiledService(out), 180000);
  afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

  it('boots as `npm start` does in at most 15 log lines before it listens: JSON from main.js, one readable line each on a terminal', async () => {
    // scripts/log-format.js is what scripts/start-staging.js puts between the service and the terminal.
    const { lineReader } = require(path.join(root, 'scripts', 'log-format.js')) as {
      lineReader(o: { pretty: boolean; write(s: string): void; onListening(url: string): void }): { push(c: string): void };
    };
    const port = String(21000 + (process.pid % 20000));
    const child = spawn(process.execPath, [path.join(out, 'main.js')], {
      env: {
        PATH: process.env.PATH,
        PORT: port,
        HOST: '127.0.0.1',
        SERVICE_AUTH_TOKEN: 'boot-lines-token-4c2a',
        SERVICE_DATA_DIR: 'memory://',
        SERVICE_STAGING_SEED: 'on',
        SERVICE_GUARDS: fs.readFileSync(path.join(root, 'config', 'guards.demo.json'), 'utf8'),
      },
      stdio: 'pipe',
    });
    const raw: string[] = [];
    const shown: string[] = [];
    let listenedAfter = -1;
    const reader = lineReader({ pretty: true, write: (line) => shown.push(line), onListening: () => (listenedAfter = shown.length) });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      raw.push(...chunk.split('\n').filter(Boolean));
      reader.push(chunk);
    });
    try {
      await waitForLine(child, new RegExp(`listening on http://[^ ]+:${port}`), 60000);
      expect(listenedAfter).toBeGreaterThan(0);
      expect(listenedAfter).toBeLessThanOrEqual(15);
      for (const line of raw) expect(() => JSON.parse(line)).not.toThrow(); // the service itself writes JSON only
      for (const line of shown.slice(0, listenedAfter)) {
        expect(line.trimEnd().split('\n')).toHaveLength(1);
        expect(line).not.toMatch(/^\{/);
      }
      expect(shown[listenedAfter - 1]).toMatch(/INFO: \[main\] listening on http:/);
    } finally {
      const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
      child.kill('SIGTERM');
      await exited;
    }
  }, 90000);
});
