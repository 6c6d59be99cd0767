import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { BOTH_DATABASES, TestApp } from '../support/test-app';
import { FakePartner, startFakePartner } from '../partners/fake-partner-server';
import { DEST, GUARDS, NS, ordersPosted, supplierApp } from '../support/money-fixtures';
import { callTool, codesOf, mcpClient } from '../support/mcp-client';

/**
 * An agent holding the operator token cannot approve its own over-budget order over MCP when an approver credential
 * is set (issue 17's SERVICE_APPROVER_TOKEN, applied to MCP because a tool call runs the REST operation with the
 * caller's own credentials). Needs the separation of duties of issue 17 in the REST pipeline.
 */
describe.each(BOTH_DATABASES)('MCP: an approval the agent cannot resolve with an approver credential (%s)', (db) => {
  const APPROVER = 'owner-approver-token-7d1e4b2a';
  let p: FakePartner;
  let t: TestApp;
  let agent: Client;
  beforeAll(async () => {
    p = await startFakePartner({ token: 'sup-token' });
    const guards = { ...GUARDS, budget: { perOrderFen: 1000, dailyFen: 300000, monthlyFen: 3000000 } };
    t = await supplierApp(p, { SERVICE_GUARDS: JSON.stringify(guards), SERVICE_APPROVER_TOKEN: APPROVER }, db === 'embedded' ? 'embedded' : undefined);
    // The v2 SDK client (MCP 2026-07-28) on PostgreSQL, the last 1.x client (2025-11-25) on the embedded database.
    agent = await mcpClient(t, undefined, db === 'postgres' ? '2026' : 'current');
  });
  afterAll(async () => {
    await agent?.close();
    await t?.close();
    await p?.close();
  });

  it('resolve_approval with the operator token is forbidden; the order waits; the owner resolves it with the approver credential', async () => {
    const id = `MCP-OB-${db}`;
    const created = await callTool(agent, 'create_checkout', { checkout: { id, line_items: [{ item: { id: `${NS}:COLA` }, quantity: 1, quantity_unit: { unit: 'BX' } }], fulfillment: DEST } });
    expect(created.body.status).toBe('requires_escalation');
    const list = await callTool(agent, 'list_approvals', { status: 'pending' });
    const approval = (list.body.approvals as { id: string; subject: { session_id: string } }[]).find((a) => a.subject.session_id === id)!;

    const self = await callTool(agent, 'resolve_approval', { id: approval.id, resolution: { approved: true, resolver: { channel: 'dashboard', sender_id: 'anyone' } } });
    expect(self.isError).toBe(true);
    expect(self.status).toBe(403);
    expect(codesOf(self)).toContain('forbidden');
    const refused = await callTool(agent, 'complete_checkout', { meta: { 'idempotency-key': `ob-${db}` }, id, checkout: { confirm: true } });
    expect(refused.isError).toBe(true);
    expect(codesOf(refused)).toContain('approval_required');
    expect(ordersPosted(p, id)).toBe(0);

    const owner = await t.raw
      .post(`/ucp/v1/approvals/${approval.id}`)
      .set('Authorization', `Bearer ${APPROVER}`)
      .send({ approved: true, resolver: { channel: 'dashboard', sender_id: 'owner' } });
    expect(owner.status).toBe(200);
  });
});
