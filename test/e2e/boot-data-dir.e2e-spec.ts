import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { compiledService, waitForLine } from '../support/compiled-service';

/**
 * The real entry point with an embedded data directory: the service as `npm run build` compiles it
 * (test/support/compiled-service.ts, into .test-dist/ so a running dist/ is untouched), run with `node main.js`.
 * The other boots (refusals, memory://, the `npm start` lines) are boot.e2e-spec.ts.
 */
const root = path.join(__dirname, '..', '..');
const out = path.join(root, '.test-dist', 'boot-data-dir');

describe('node dist/main.js with a data directory', () => {
  beforeAll(() => compiledService(out), 180000);
  afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

  it('copies a new data directory from the build\'s migrated embedded template (no initdb in the process) and reopens it', async () => {
    execFileSync(process.execPath, [path.join(root, 'scripts', 'make-embedded-template.js'), out], { cwd: root, stdio: 'pipe' });
    expect(fs.existsSync(path.join(out, 'embedded-template', 'PG_VERSION'))).toBe(true);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vending-data-'));
    const port = String(22000 + (process.pid % 20000));
    const env = { PATH: process.env.PATH, PORT: port, HOST: '127.0.0.1', SERVICE_AUTH_TOKEN: 'boot-test-token-0123', SERVICE_DATA_DIR: dir, SERVICE_SCHEDULER: 'off' };
    try {
      for (const round of ['new', 'existing']) {
        const child = spawn(process.execPath, [path.join(out, 'main.js')], { env, stdio: 'pipe' });
        try {
          await waitForLine(child, /listening on/, 60000);
          const res = await fetch(`http://127.0.0.1:${port}/ucp/v1/events?limit=1`, { headers: { authorization: 'Bearer boot-test-token-0123' } });
          expect([round, res.status]).toEqual([round, 200]); // the schema is there: the copy was migrated
          expect(fs.existsSync(path.join(dir, 'PG_VERSION'))).toBe(true);
        } finally {
          const exited = new Promise((r) => child.on('exit', r));
          child.kill('SIGTERM');
          await exited;
        }
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 180000);

  it('locks the embedded data directory against a second process', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vending-data-'));
    const port = String(21000 + (process.pid % 20000));
    const env = { PATH: process.env.PATH, PORT: port, HOST: '127.0.0.1', SERVICE_AUTH_TOKEN: 'boot-test-token-0123', SERVICE_DATA_DIR: dir, SERVICE_SCHEDULER: 'off' };
    const first = spawn(process.execPath, [path.join(out, 'main.js')], { env, stdio: 'pipe' });
    try {
      await waitForLine(first, /listening on/, 60000);
      let stderr = '';
      let status = 0;
      try {
        execFileSync(process.execPath, [path.join(out, 'main.js')], { env: { ...env, PORT: String(Number(port) + 1) }, stdio: 'pipe', timeout: 60000 });
      } catch (e) {
        status = (e as { status: number }).status;
        stderr = (e as { stderr: Buffer }).stderr.toString();
      }
      expect(status).not.toBe(0);
      expect(stderr).toContain('SERVICE_DATA_DIR');
    } finally {
      const exited = new Promise((r) => first.on('exit', r));
      first.kill('SIGTERM');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120000);
});
