/**
 * Builds the operator console once per test process into a temporary folder (so tests always serve the current
 * source, never a stale dist/console) and returns its path for SERVICE_CONSOLE_DIR.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let built: string | null = null;

export function buildConsole(): string {
  if (built) return built;
  const out = mkdtempSync(join(tmpdir(), 'console-build-'));
  const root = join(__dirname, '..', '..');
  execFileSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', join(root, 'console', 'vite.config.mts'), '--logLevel', 'error'], {
    cwd: root,
    env: { ...process.env, CONSOLE_OUT_DIR: out, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  built = out;
  return out;
}
