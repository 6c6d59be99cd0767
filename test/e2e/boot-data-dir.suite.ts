import * as fs from 'node:fs';
import * as path from 'node:path';
import { compiledService } from '../support/compiled-service';

/**
 * The real entry point with an embedded data directory: the service as `npm run build` compiles it
 * (test/support/compiled-service.ts, into .test-dist/ so a running dist/ is untouched), run with `node main.js`.
 * A test each, as each spawns the service and waits for it (a file each stays under 20 s):
 * boot-data-dir-template.e2e-spec.ts (a new directory copied from the migrated template, then reopened) and
 * boot-data-dir-lock.e2e-spec.ts (a second process refused). The other boots (refusals, memory://, the `npm start`
 * lines) are boot.e2e-spec.ts and boot-npm-start.e2e-spec.ts.
 */
export const root = path.join(__dirname, '..', '..');

/** The describe of one file, its service compiled into `.test-dist/<name>` (its own, as the files may run at once). */
export function dataDirSuite(name: string, tests: (out: string) => void): void {
  const out = path.join(root, '.test-dist', name);
  describe('node dist/main.js with a data directory', () => {
    beforeAll(() => compiledService(out), 180000);
    afterAll(() => fs.rmSync(out, { recursive: true, force: true }));
    tests(out);
  });
}

/** The environment of `node main.js` on the embedded data directory `dir`, listening on `port`. */
export function dataDirEnv(dir: string, port: string): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, PORT: port, HOST: '127.0.0.1', SERVICE_AUTH_TOKEN: 'boot-test-token-0123', SERVICE_DATA_DIR: dir, SERVICE_SCHEDULER: 'off' };
}
