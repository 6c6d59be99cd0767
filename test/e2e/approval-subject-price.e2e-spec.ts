import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { BOTH_DATABASES, startTestApp, TestApp } from '../support/test-app';
import { FakePartner, startFakePartner } from '../partners/fake-partner-server';
import { GUARDS } from '../support/money-fixtures';
import { callTool, codesOf, mcpClient } from '../support/mcp-client';

const MACHINE = 'acme-machine';
const price = (amount: number) => ({ confirm: true, prices: [{ item: { id: `${MACHINE}:A1` }, price: { amount, currency: 'CNY' } }] });
type Json = Record<string, any>;

/**
 * Issue 37, item 1, for price changes (both databases, REST and MCP): the approval shows the machine and the good by
 * name, the old and the new price; while it is pending the slot's price does not change (another request is refused
 * with the pending approval named), so what the owner approves is what happens.
 */
describe.each(BOTH_DATABASES)('a price change\'s approval shows machine, good, old and new price (%s)', (db) => {
  let p: FakePartner;
  let t: TestApp;
  let agent: Client;
  beforeAll(async () => {
    p = await startFakePartner({ token: 'partner-token' });
    p.state.inventory['loc-1'] = [{ vendorSku: 'A1', title: 'Oolong tea 500ml', priceFen: 350, stock: 4 }];
    t = await startTestApp({
      db,
      env: {
        SERVICE_ENV: 'production',
        SERVICE_HTTP_VENDORS: JSON.stringify([{ namespace: MACHINE, baseUrl: p.url, token: p.token, capabilities: ['inventory', 'ledger', 'pricing'] }]),
        SERVICE_DEFAULT_MACHINE_NAMESPACE: MACHINE,
        SERVICE_GUARDS: JSON.stringify(GUARDS),
      },
    });
    expect((await t.put('/ucp/v1/locations/loc-1', { name: 'Station lobby', namespace: MACHINE })).status).toBeLessThan(300);
    expect((await t.post('/ucp/v1/locations/sync', {})).status).toBe(200);
    agent = await mcpClient(t);
  });
  afterAll(async () => {
    await agent?.close();
    await t?.close();
    await p?.close();
  });

  it('parked over the cap: shown in words (REST and MCP); a second change of the slot waits for it', async () => {
    const parked = await t.put('/ucp/v1/locations/loc-1/prices', price(1000)).expect(200);
    const id = parked.body.actions[0].approval_id as string;
    const rest = (await t.get(`/ucp/v1/approvals/${id}`).expect(200)).body.approval as Json;
    expect(rest.shows).toEqual({
      headline: 'Price of Oolong tea 500ml on Station lobby: ¥3.50 → ¥10.00',
      lines: [],
      total_fen: null,
      price: { machine: 'Station lobby', good: 'Oolong tea 500ml', item_id: `${MACHINE}:A1`, from_fen: 350, to_fen: 1000 },
      link: '/ucp/v1/locations/loc-1/inventory',
    });
    expect(rest.subject).toMatchObject({ machine: 'Station lobby', title: 'Oolong tea 500ml', current_fen: 350, price_fen: 1000 });
    const viaMcp = await callTool(agent, 'get_approval', { id });
    expect((viaMcp.body.approval as Json).shows).toEqual(rest.shows);

    // Another price for the slot while it is pending: nothing changes, the pending approval is named.
    const second = await callTool(agent, 'update_prices', { meta: { 'idempotency-key': `second-${db}` }, id: 'loc-1', prices: price(380) });
    expect(second.body.updated).toEqual([]);
    expect(codesOf(second)).toContain('approval_required');
    expect(second.body.messages.find((m) => m.code === 'approval_required')!.content).toContain(id);
    expect(p.requestsTo('POST /prices')).toHaveLength(0);
  });
});
