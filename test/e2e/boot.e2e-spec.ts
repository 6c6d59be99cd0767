import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { compiledService, waitForLine } from '../support/compiled-service';

/**
 * The real entry point: the service as `npm run build` compiles it (test/support/compiled-service.ts, into .test-dist/
 * so a running dist/ is untouched), run with `node main.js` as an operator would. The boot as `npm start` does is
 * boot-npm-start.e2e-spec.ts; an embedded data directory is boot-data-dir-template.e2e-spec.ts (template, reopening)
 * and boot-data-dir-lock.e2e-spec.ts (lock).
 */
const root = path.join(__dirname, '..', '..');
const out = path.join(root, '.test-dist', 'boot');

describe('node dist/main.js', () => {
  beforeAll(() => compiledService(out), 180000);
  afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

  it('stops the boot with one line naming a malformed variable', () => {
    let stderr = '';
    let status = 0;
    try {
      execFileSync(process.execPath, [path.join(out, 'main.js')], { env: { PATH: process.env.PATH, PORT: 'eighty' }, stdio: 'pipe' });
    } catch (e) {
      const err = e as { status: number; stderr: Buffer };
      status = err.status;
      stderr = err.stderr.toString();
    }
    expect(status).not.toBe(0);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('PORT');
  });

  it('stops a production boot with one line naming a SERVICE_AUTH_TOKEN under 16 characters, never printing it', () => {
    let stderr = '';
    let status = 0;
    try {
      execFileSync(process.execPath, [path.join(out, 'main.js')], {
        env: { PATH: process.env.PATH, SERVICE_ENV: 'production', SERVICE_PUBLIC_URL: 'https://svc.example', SERVICE_AUTH_TOKEN: 'tooshort-secret' },
        stdio: 'pipe',
      });
    } catch (e) {
      const err = e as { status: number; stderr: Buffer };
      status = err.status;
      stderr = err.stderr.toString();
    }
    expect(status).not.toBe(0);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('SERVICE_AUTH_TOKEN');
    expect(stderr).not.toContain('tooshort-secret');
  });

  it('starts on the embedded database, logs its URL but never the token, serves, and shuts down gracefully', async () => {
    const token = 'boot-test-token-91f3';
    const port = String(20000 + (process.pid % 20000));
    const child = spawn(process.execPath, [path.join(out, 'main.js')], {
      env: { PATH: process.env.PATH, PORT: port, HOST: '127.0.0.1', SERVICE_AUTH_TOKEN: token, SERVICE_DATA_DIR: 'memory://', SERVICE_SCHEDULER: 'off' },
      stdio: 'pipe',
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    try {
      await waitForLine(child, new RegExp(`listening on http://[^ ]+:${port}`), 60000);
      const res = await fetch(`http://127.0.0.1:${port}/ucp/v1/namespaces`, { headers: { Authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { ucp: { status: string } };
      expect(body.ucp.status).toBe('success');
    } finally {
      const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
    expect(output).not.toContain(token);
  }, 90000);
});
