import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OpenApiDocumentLike, toolDefinitions } from '../../../src/mcp/tools/mcp-schemas.rules';

/** What `tools/list` answers, as the JSON-RPC message the endpoint writes (test/e2e/mcp.e2e-spec.ts measures the real bytes). */
export const TOOLS_LIST_BUDGET = 64 * 1024;

const doc = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'docs', 'openapi.json'), 'utf8')) as OpenApiDocumentLike;

describe('the tools/list budget (issue 29)', () => {
  const tools = toolDefinitions(doc).map((d) => d.tool);
  const bytes = Buffer.byteLength(JSON.stringify({ result: { tools }, jsonrpc: '2.0', id: 1 }), 'utf8');

  it(`fits in ${TOOLS_LIST_BUDGET} bytes`, () => {
    const largest = tools.map((t) => `${t.name} ${JSON.stringify(t).length}`).sort((a, b) => Number(b.split(' ')[1]) - Number(a.split(' ')[1]));
    if (bytes > TOOLS_LIST_BUDGET) throw new Error(`tools/list is ${bytes} bytes (budget ${TOOLS_LIST_BUDGET}); largest: ${largest.slice(0, 5).join(', ')}`);
    expect(bytes).toBeLessThanOrEqual(TOOLS_LIST_BUDGET);
  });

  it('every tool says what it is for in a few sentences, without an output schema', () => {
    for (const t of tools) {
      expect(t).not.toHaveProperty('outputSchema');
      expect(t.description.length).toBeLessThan(1000);
      expect(t.description).toMatch(/^[A-Z]/);
    }
  });

  it('every input is still described by a schema that refuses unknown arguments', () => {
    for (const t of tools) {
      expect(t.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
      for (const schema of Object.values(t.inputSchema.properties)) expect(schema.type ?? schema.$ref ?? schema.anyOf).toBeDefined();
    }
  });
});
