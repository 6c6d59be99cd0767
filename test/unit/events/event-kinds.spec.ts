import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildAsyncApiDocument } from '../../../src/events/api/asyncapi';
import { SERVICE_EVENT_KINDS } from '../../../src/events/event-kinds';

const SRC = path.join(__dirname, '..', '..', '..', 'src');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) return sourceFiles(p);
    return d.name.endsWith('.ts') ? [p] : [];
  });
}

/** The argument text of each `.record(` call of EventsService in `text` (balanced parentheses). */
function recordCalls(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/events\.record\(/g)) {
    let i = m.index + m[0].length;
    for (let depth = 1; depth > 0 && i < text.length; i++) depth += text[i] === '(' ? 1 : text[i] === ')' ? -1 : 0;
    out.push(text.slice(m.index + m[0].length, i - 1));
  }
  return out;
}

/** Issue 17: the kinds the service records are one closed list, and the AsyncAPI document lists every one. */
describe('service event kinds', () => {
  const doc = buildAsyncApiDocument('http://localhost:8080') as {
    components: { schemas: { ServiceEventKind: { enum: string[] }; Event: { properties: Record<string, { enum?: string[] }> } } };
  };

  it('the AsyncAPI document lists every kind the service records, and only those', () => {
    expect([...doc.components.schemas.ServiceEventKind.enum].sort()).toEqual([...SERVICE_EVENT_KINDS].sort());
    expect(doc.components.schemas.Event.properties.source.enum).toEqual(['service', 'client']);
  });

  it('every kind literal recorded in src is in the list (the type makes a typo fail to compile; this also catches casts)', () => {
    const recorded = new Set<string>();
    for (const file of sourceFiles(SRC)) {
      for (const call of recordCalls(fs.readFileSync(file, 'utf8'))) {
        const kindExpr = /\bkind:\s*([^,\n]+)/.exec(call)?.[1] ?? '';
        for (const lit of kindExpr.matchAll(/'([^']+)'/g)) recorded.add(lit[1]);
      }
    }
    // The scan must find the kinds recorded today, including the two the document used to miss.
    for (const k of ['sku.aliases_changed', 'location.removed', 'checkout.completed', 'restock.completed']) expect(recorded.has(k)).toBe(true);
    const documented: string[] = doc.components.schemas.ServiceEventKind.enum;
    expect([...recorded].filter((k) => !documented.includes(k))).toEqual([]);
  });
});
