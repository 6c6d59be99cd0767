import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderMcpDoc } from '../../../src/mcp/mcp-doc.rules';
import { operationsById, OpenApiDocumentLike } from '../../../src/mcp/tools/mcp-schemas.rules';
import { MCP_EXCLUDED_OPERATIONS, MCP_TOOLS } from '../../../src/mcp/tools/mcp-tools.table';

const root = join(__dirname, '..', '..', '..');
const doc = JSON.parse(readFileSync(join(root, 'docs', 'openapi.json'), 'utf8')) as OpenApiDocumentLike;

describe('the MCP tool table', () => {
  it('names every operation of the OpenAPI document once, or excludes it', () => {
    const ops = [...operationsById(doc).keys()];
    const named = MCP_TOOLS.map((t) => t.operationId);
    expect(new Set(named).size).toBe(named.length);
    expect(new Set(MCP_TOOLS.map((t) => t.tool)).size).toBe(MCP_TOOLS.length);
    expect([...named, ...MCP_EXCLUDED_OPERATIONS].sort()).toEqual(ops.sort());
  });

  it('keeps UCP names for the eight UCP operations and snake_case verb_noun elsewhere', () => {
    expect(MCP_TOOLS.filter((t) => t.ucp).map((t) => t.tool).sort()).toEqual(
      ['cancel_checkout', 'complete_checkout', 'create_checkout', 'get_checkout', 'get_order', 'lookup_catalog', 'search_catalog', 'update_checkout'],
    );
    for (const t of MCP_TOOLS) expect(t.tool).toMatch(/^[a-z]+(_[a-z]+)+$/);
    expect(MCP_TOOLS.filter((t) => t.movesMoney).map((t) => t.tool).sort()).toEqual(['complete_checkout', 'place_run', 'send_restock', 'update_prices']);
  });

  it('docs/mcp.md is the rendering of the table and the committed OpenAPI document', () => {
    const path = join(root, 'docs', 'mcp.md');
    const rendered = renderMcpDoc(doc);
    if (process.env.UPDATE_OPENAPI) writeFileSync(path, rendered);
    expect(readFileSync(path, 'utf8')).toBe(rendered);
  });
});
