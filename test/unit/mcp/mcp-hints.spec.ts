import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OpenApiDocumentLike, toolDefinitions } from '../../../src/mcp/tools/mcp-schemas.rules';

const doc = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'docs', 'openapi.json'), 'utf8')) as OpenApiDocumentLike;

/** The GET operations that write something of their own (test/e2e/mcp-read-only.e2e-spec.ts watches the SQL they send). */
const RECORDING_READS = ['get_replenishment_plan'];

describe('the MCP hints say what a tool does (issue 31)', () => {
  const defs = toolDefinitions(doc);

  it('a GET tool is read-only unless it says what it records, and only a GET records', () => {
    for (const d of defs) {
      const seen = { tool: d.tool.name, readOnlyHint: d.tool.annotations.readOnlyHint, records: d.spec.records !== undefined };
      if (d.route.method === 'GET') expect(seen).toEqual({ ...seen, readOnlyHint: !seen.records });
      else expect(seen).toEqual({ ...seen, records: false });
    }
    expect(defs.filter((d) => d.spec.records).map((d) => d.tool.name)).toEqual(RECORDING_READS);
  });

  it('get_replenishment_plan records a plan snapshot: not read-only, idempotent, not destructive, and says so', () => {
    const plan = defs.find((d) => d.tool.name === 'get_replenishment_plan')!;
    expect(plan.route.method).toBe('GET');
    expect(plan.tool.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: true, destructiveHint: false, openWorldHint: false });
    expect(plan.tool.description).toMatch(/Records a plan snapshot/);
  });
});

describe('who a tool opens to comes from its operation\'s security (issue 37)', () => {
  const defs = toolDefinitions(doc);

  it('the approval tools a chat credential may call are `chat`, discovery is `anyone`, the rest `token`', () => {
    const by = (access: string) => defs.filter((d) => d.access === access).map((d) => d.spec.operationId).sort();
    expect(by('chat')).toEqual(['approvals_get', 'approvals_list', 'approvals_resolve']);
    expect(by('anyone')).toEqual(['discovery_profile']);
    expect(by('token').length).toBe(defs.length - 4);
  });
});
