import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * The real entry point: compiles the service as `npm run build` does (into .test-dist/ so a running dist/ is
 * untouched) and runs `node main.js` as an operator would.
 */
const root = path.join(__dirname, '..', '..');
const out = path.join(root, '.test-dist');

function waitForLine(child: ChildProcess, re: RegExp, ms: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => reject(new Error(`timeout waiting for ${re}; output so far:\n${buf}`)), ms);
    const on = (d: Buffer) => {
      buf += d.toString();
      const m = re.exec(buf);
      if (m) {
        clearTimeout(timer);
        resolve(m[0]);
      }
    };
    child.stdout?.on('data', on);
    child.stderr?.on('data', on);
  });
}

describe('node dist/main.js', () => {
  beforeAll(() => {
    fs.rmSync(out, { recursive: true, force: true });
    execFileSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json', '--outDir', out], {
      cwd: root,
      stdio: 'pipe',
    });
    fs.writeFileSync(path.join(out, 'main.js'), "require('./src/main.js');\n");
  }, 180000);
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
