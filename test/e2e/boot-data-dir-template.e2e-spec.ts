import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { waitForLine } from '../support/compiled-service';
import { dataDirEnv, dataDirSuite, root } from './boot-data-dir.suite';

/**
 * `node main.js` with a new embedded data directory (boot-data-dir.suite.ts): copied from the build's migrated
 * template, then reopened; the lock against a second process is boot-data-dir-lock.e2e-spec.ts.
 */
dataDirSuite('boot-data-dir-template', (out) => {
  it('copies a new data directory from the build\'s migrated embedded template (no initdb in the process) and reopens it', async () => {
    execFileSync(process.execPath, [path.join(root, 'scripts', 'make-embedded-template.js'), out], { cwd: root, stdio: 'pipe' });
    expect(fs.existsSync(path.join(out, 'embedded-template', 'PG_VERSION'))).toBe(true);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vending-data-'));
    const port = String(22000 + (process.pid % 20000));
    const env = dataDirEnv(dir, port);
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
});
