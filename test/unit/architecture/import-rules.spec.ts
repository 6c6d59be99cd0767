import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

/**
 * The import rules of .dependency-cruiser.cjs (floors, no circles, views at the edge, fulfiller kinds, generated
 * code), run as `npm run lint:imports` runs them, in a child process: dependency-cruiser is an ES module and loads
 * the TypeScript compiler, which the test's own module registry need not hold.
 */
const ROOT = path.join(__dirname, '..', '..', '..');

interface Violation {
  rule: string;
  from: string;
  to: string;
  comment: string;
}

/** The cruise's result; the script exits 1 when it found violations (they are in its output), anything else throws. */
function cruise(): { cruised: number; violations: Violation[] } {
  const script = path.join(ROOT, 'scripts', 'lint-imports.mjs');
  try {
    return JSON.parse(execFileSync(process.execPath, [script, '--json'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 16 << 20 }));
  } catch (err) {
    const e = err as { status?: number; stdout?: string; stderr?: string };
    if (e.status === 1 && e.stdout) return JSON.parse(e.stdout);
    throw new Error(`scripts/lint-imports.mjs failed: ${e.stderr || String(err)}`);
  }
}

describe('import rules (.dependency-cruiser.cjs)', () => {
  let result: { cruised: number; violations: Violation[] };
  beforeAll(() => {
    result = cruise();
  }, 120_000);

  it('reads the whole of src/', () => {
    expect(result.cruised).toBeGreaterThan(300);
  });

  it('no import breaks a rule', () => {
    const byRule = new Map<string, Violation[]>();
    for (const v of result.violations) byRule.set(v.rule, [...(byRule.get(v.rule) ?? []), v]);
    const report = [...byRule].map(([rule, vs]) => `${rule}: ${vs[0].comment}\n${vs.map((v) => `  ${v.from} → ${v.to}`).join('\n')}`);
    if (report.length) throw new Error(`${result.violations.length} import(s) break the rules:\n\n${report.join('\n\n')}`);
  });
});
