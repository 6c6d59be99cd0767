import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { restCallOf } from '../../../src/mcp/tools/mcp-call.rules';
import { jsonSchemaOf, OpenApiDocumentLike, toolDefinitions } from '../../../src/mcp/tools/mcp-schemas.rules';

const doc = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'docs', 'openapi.json'), 'utf8')) as OpenApiDocumentLike;
const defs = Object.fromEntries(toolDefinitions(doc).map((d) => [d.tool.name, d]));

describe('tool arguments → REST request', () => {
  it('maps meta to headers, path and query parameters to the URL, the payload to the body', () => {
    const m = restCallOf(defs.complete_checkout, { meta: { 'ucp-agent': { profile: 'https://a.example/p"x' }, 'idempotency-key': 'k-1' }, id: 'PO 1/2', checkout: { confirm: true } });
    expect(m).toEqual({
      ok: true,
      call: { method: 'POST', url: '/ucp/v1/checkout-sessions/PO%201%2F2/complete', headers: { 'ucp-agent': 'profile="https://a.example/p\\"x"', 'idempotency-key': 'k-1' }, payload: '{"confirm":true}' },
    });
    expect(restCallOf(defs.list_orders, { kind: 'purchase', limit: 5 })).toMatchObject({ ok: true, call: { method: 'GET', url: '/ucp/v1/orders?kind=purchase&limit=5' } });
  });

  it('refuses what the REST request could not carry, naming the argument', () => {
    const bad = restCallOf(defs.complete_checkout, { id: '', checkout: {}, extra: 1 });
    expect(bad.ok).toBe(false);
    const paths = !bad.ok ? bad.body.messages.map((x) => `${x.code} ${x.path}`) : [];
    expect(paths).toEqual(['invalid $.extra', 'missing $.meta["idempotency-key"]', 'invalid $.id']);
    expect(restCallOf(defs.list_orders, { limit: { a: 1 } }).ok).toBe(false);
    expect(restCallOf(defs.get_checkout, { meta: [], id: 'x' }).ok).toBe(false);
  });

  it('schemas: nullable becomes a null branch, references become $defs, every tool has an object result schema (for the OpenRPC document)', () => {
    expect(jsonSchemaOf({ type: 'string', nullable: true, example: 'x' }, doc, new Map())).toEqual({ anyOf: [{ type: 'string' }, { type: 'null' }] });
    for (const d of Object.values(defs)) {
      expect(d.tool.inputSchema.type).toBe('object');
      expect(d.resultSchema?.type).toBe('object');
      expect(JSON.stringify(d.tool)).not.toContain('#/components/');
    }
  });
});
