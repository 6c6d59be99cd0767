import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

/**
 * Issue 31: a service split by concern takes at most six dependencies. Every `@Injectable()` class of src (services,
 * fulfillers, handlers, schedulers) is read from its source: the constructor's parameters are its dependencies.
 */
const LIMIT = 6;
const SRC = path.join(__dirname, '..', '..', '..', 'src');

/**
 * Classes over the limit while a split is under way, with their count: none may grow, none may be added, and each
 * leaves this list once it is split. Empty since PlanService was split (PlanInputsService).
 */
const BEING_SPLIT: Record<string, number> = {};

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) return sourceFiles(p);
    return d.name.endsWith('.ts') ? [p] : [];
  });
}

/** Each `@Injectable()` class of a source text with the number of its constructor's parameters. */
export function injectableDependencies(text: string): { name: string; dependencies: number }[] {
  const file = ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, true);
  const out: { name: string; dependencies: number }[] = [];
  file.forEachChild((node) => {
    if (!ts.isClassDeclaration(node)) return;
    const injectable = (ts.getDecorators(node) ?? []).some((d) => /^Injectable\b/.test(d.expression.getText(file)));
    if (!injectable) return;
    const ctor = node.members.find(ts.isConstructorDeclaration);
    out.push({ name: node.name?.text ?? '(anonymous)', dependencies: ctor?.parameters.length ?? 0 });
  });
  return out;
}

const counts = new Map<string, number>();
for (const f of sourceFiles(SRC)) {
  const rel = path.relative(SRC, f).split(path.sep).join('/');
  for (const c of injectableDependencies(fs.readFileSync(f, 'utf8'))) counts.set(`${rel} ${c.name}`, c.dependencies);
}

describe('service dependencies (issue 31)', () => {
  it('reads a constructor\'s parameters, decorated ones included, of injectable classes only', () => {
    const text = `
      @Injectable()
      export class Wide { constructor(a: A, private readonly b: B, @Inject(C) c: C, d: D, e: E, f: F, g: G) {} }
      @Injectable()
      export class Bare {}
      export class NotInjected { constructor(a: A, b: B, c: C, d: D, e: E, f: F, g: G, h: H) {} }`;
    expect(injectableDependencies(text)).toEqual([
      { name: 'Wide', dependencies: 7 },
      { name: 'Bare', dependencies: 0 },
    ]);
  });

  it('finds the project\'s services', () => {
    expect(counts.get('checkout/completion/checkout-completion.service.ts CheckoutCompletionService')).toBeGreaterThan(0);
    expect(counts.size).toBeGreaterThan(50);
  });

  it(`no injectable class takes more than ${LIMIT} dependencies`, () => {
    const over = [...counts].filter(([key, n]) => n > LIMIT && !(key in BEING_SPLIT)).map(([key, n]) => `${key}: ${n}`);
    expect(over).toEqual([]);
  });

  it('a class being split does not grow, and leaves the list once it is split', () => {
    const wrong = Object.entries(BEING_SPLIT)
      .filter(([key, n]) => !counts.has(key) || counts.get(key)! > n || counts.get(key)! <= LIMIT)
      .map(([key, n]) => `${key}: listed ${n}, found ${counts.get(key) ?? 'no such class'}`);
    expect(wrong).toEqual([]);
  });
});
