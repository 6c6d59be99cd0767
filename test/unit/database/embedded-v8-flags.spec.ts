import { spawnSync } from 'node:child_process';
import { EMBEDDED_V8_FLAGS, runtimeV8Flags } from '../../../src/database/embedded-postgres';

/** Issue 21: the embedded default trades peak speed for memory; the PostgreSQL deployment keeps V8's defaults. */
describe('runtime V8 flags', () => {
  it('the embedded database (no DATABASE_URL) gets the baseline WebAssembly tier and a smaller heap; PostgreSQL none', () => {
    expect(runtimeV8Flags(null)).toEqual(['--liftoff-only', '--optimize-for-size']);
    expect(runtimeV8Flags(undefined)).toEqual(EMBEDDED_V8_FLAGS);
    expect(runtimeV8Flags('postgres://x@127.0.0.1/db')).toEqual([]);
  });

  it('each flag is one this Node accepts (a misspelt V8 flag would be ignored silently at run time)', () => {
    for (const flag of EMBEDDED_V8_FLAGS) {
      const r = spawnSync(process.execPath, [flag, '-e', '0'], { encoding: 'utf8' });
      expect({ flag, status: r.status, stderr: r.stderr }).toEqual({ flag, status: 0, stderr: '' });
    }
  });
});
