import { ChildProcess, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.join(__dirname, '..', '..');
const SOURCES = ['src', 'migrations', 'generated'];

/**
 * The service as `npm run build` compiles it (tsconfig.build.json), in `out` with the one-line `main.js` entry point,
 * for the tests that run `node main.js` as an operator would (a running dist/ is never touched).
 *
 * When dist/ holds the build of the current sources (CI builds right before the tests: every .ts file of src/,
 * migrations/ and generated/ has its .js there, none newer than it, nor the tsconfig files), its JavaScript is copied. Otherwise tsc
 * compiles with tsconfig.build.json and `--noCheck` (the same output without the type check, which
 * `npm run typecheck` does), once per test run for all the files that need it (global-teardown.ts removes it).
 */
export async function compiledService(out: string): Promise<void> {
  fs.rmSync(out, { recursive: true, force: true });
  const from = builtFromCurrentSources() ? path.join(root, 'dist') : await compiledOncePerRun();
  for (const dir of SOURCES) fs.cpSync(path.join(from, dir), path.join(out, dir), { recursive: true });
  fs.writeFileSync(path.join(out, 'main.js'), "require('./src/main.js');\n");
}

/** Resolves with the first match of `re` in the child's output; rejects with the output so far after `ms`. */
export function waitForLine(child: ChildProcess, re: RegExp, ms: number): Promise<string> {
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

/** Where this run's own compile goes (global-teardown.ts removes it). */
export function runBuildDir(): string {
  return path.join(root, '.test-dist', `build-${process.env.TEST_PG_TEMPLATE ?? process.pid}`);
}

async function compiledOncePerRun(): Promise<string> {
  const dir = runBuildDir();
  const done = path.join(dir, '.done');
  const lock = `${dir}.lock`;
  const deadline = Date.now() + 180_000;
  // The lock is a directory made without `recursive` (only one maker wins): its parent must exist first, or every
  // file would take the failure for another file's lock and wait out the deadline.
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  while (!fs.existsSync(done)) {
    let mine = false;
    try {
      fs.mkdirSync(lock, { recursive: false });
      mine = true;
    } catch {
      // another test file of this run is compiling it
    }
    if (mine) {
      try {
        fs.mkdirSync(path.dirname(dir), { recursive: true });
        execFileSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json', '--noCheck', '--outDir', dir], {
          cwd: root,
          stdio: 'pipe',
        });
        fs.writeFileSync(done, '');
      } finally {
        fs.rmSync(lock, { recursive: true, force: true });
      }
    } else {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${dir} to be compiled`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  return dir;
}

/** Whether dist/ is the build of the current sources (every .ts of src/ and migrations/ built after its last change). */
export function builtFromCurrentSources(): boolean {
  const dist = path.join(root, 'dist');
  const built = (p: string) => fs.statSync(p, { throwIfNoEntry: false })?.mtimeMs;
  const entry = built(path.join(dist, 'main.js'));
  if (entry === undefined) return false;
  for (const config of ['tsconfig.json', 'tsconfig.build.json']) if (fs.statSync(path.join(root, config)).mtimeMs > entry) return false;
  const fresh = (dir: string): boolean => {
    for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (!fresh(rel)) return false;
      } else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') && !e.name.endsWith('.spec.ts')) {
        const js = built(path.join(dist, rel.replace(/\.ts$/, '.js')));
        if (js === undefined || js < fs.statSync(path.join(root, rel)).mtimeMs) return false;
      }
    }
    return true;
  };
  return SOURCES.every(fresh);
}
