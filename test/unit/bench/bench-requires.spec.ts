import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// A bench that requires a file git does not track works on the machine that wrote it and nowhere else
// (bench/data/sql.js was once ignored by a `data/` rule).
const root = resolve(__dirname, '..', '..', '..');
const benchFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? benchFiles(join(dir, e.name)) : e.name.endsWith('.js') ? [join(dir, e.name)] : []));

function localRequires(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/require\(\s*'(\.{1,2}\/[^']+)'\s*\)/g)].map((m) => {
    const target = resolve(dirname(file), m[1]);
    return existsSync(target) ? target : `${target}.js`;
  });
}

describe('bench scripts', () => {
  const files = benchFiles(join(root, 'bench'));

  it('finds the benches', () => {
    expect(files.map((f) => relative(root, f))).toEqual(expect.arrayContaining(['bench/read-compare.js', 'bench/data/sql.js']));
  });

  it.each(files.map((f) => [relative(root, f)]))('%s requires only files that exist and git tracks', (file) => {
    for (const target of localRequires(join(root, file))) {
      expect(existsSync(target)).toBe(true);
      const tracked = (() => {
        try {
          execFileSync('git', ['ls-files', '--error-unmatch', target], { cwd: root, stdio: 'ignore' });
          return true;
        } catch {
          return false;
        }
      })();
      expect({ target: relative(root, target), tracked }).toEqual({ target: relative(root, target), tracked: true });
    }
  });
});
