import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { waitForLine } from '../support/compiled-service';
import { dataDirEnv, dataDirSuite } from './boot-data-dir.suite';

/**
 * `node main.js` holds its embedded data directory (boot-data-dir.suite.ts): a second process on it is refused; the
 * copy from the template and the reopening are boot-data-dir-template.e2e-spec.ts.
 */
dataDirSuite('boot-data-dir-lock', (out) => {
  it('locks the embedded data directory against a second process', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vending-data-'));
    const port = String(21000 + (process.pid % 20000));
    const env = dataDirEnv(dir, port);
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
