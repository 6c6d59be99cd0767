import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { BOTH_DATABASES, startTestApp, TestApp } from '../support/test-app';
import { FakePartner, startFakePartner } from '../partners/fake-partner-server';
import { GUARDS } from '../support/money-fixtures';
import { callTool, codesOf, mcpClient } from '../support/mcp-client';

const MACHINE = 'acme-machine';
const price = (sku: string, amount: number) => ({ confirm: true, prices: [{ item: { id: `${MACHINE}:${sku}` }, price: { amount, currency: 'CNY' } }] });
type Reference = { item: { id: string }; price: { amount: number }; source: string; since: string };

/**
 * Issue 26 item 2: the per-item cap (200 fen / 25 %) holds against the item's reference price of the day, not only the
 * previous step: eight +125 fen steps from 500 no longer reach 1,500 without an approval.
 */
describe.each(BOTH_DATABASES)('a price walked up in small steps (%s)', (db) => {
  let p: FakePartner;
  let t: TestApp;
  let agent: Client;
  beforeAll(async () => {
    p = await startFakePartner({ token: 'partner-token' });
    p.state.inventory['loc-1'] = ['W1', 'W2', 'W3'].map((vendorSku) => ({ vendorSku, title: vendorSku, priceFen: 500, stock: 4 }));
    t = await startTestApp({
      db,
      env: {
        SERVICE_ENV: 'production',
        SERVICE_HTTP_VENDORS: JSON.stringify([{ namespace: MACHINE, baseUrl: p.url, token: p.token, capabilities: ['inventory', 'ledger', 'pricing'] }]),
        SERVICE_DEFAULT_MACHINE_NAMESPACE: MACHINE,
        SERVICE_GUARDS: JSON.stringify(GUARDS),
      },
    });
    expect((await t.put('/ucp/v1/locations/loc-1', { name: 'Machine 1', namespace: MACHINE })).status).toBeLessThan(300);
    expect((await t.post('/ucp/v1/locations/sync', {})).status).toBe(200);
    agent = await mcpClient(t);
  });
  afterAll(async () => {
    await agent?.close();
    await t?.close();
    await p?.close();
  });

  it('REST: eight +125 steps from 500: the first is made, the second is parked against the reference 500, the rest wait', async () => {
    const answers = [];
    for (let step = 1; step <= 8; step++) answers.push(await t.put('/ucp/v1/locations/loc-1/prices', price('W1', 500 + 125 * step)));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    expect(answers[0].body.updated).toEqual([{ item: { id: `${MACHINE}:W1` }, previous: { amount: 500, currency: 'CNY' }, price: { amount: 625, currency: 'CNY' } }]);
    const ref = answers[0].body.references as Reference[];
    expect(ref).toEqual([{ item: { id: `${MACHINE}:W1` }, price: { amount: 500, currency: 'CNY' }, source: 'day_start', since: expect.stringMatching(/T00:00:00(\.000)?\+08:00$/) }]);
    // 625 → 750 is a 125 step (within), but 250 from the day's reference 500: parked.
    expect(answers[1].body.updated).toEqual([]);
    expect(answers[1].body.references[0].price.amount).toBe(500);
    const parked = answers[1].body.messages.find((m: { code: string }) => m.code === 'approval_required');
    expect(parked.content).toContain('500');
    for (const a of answers.slice(2)) expect(a.body.updated).toEqual([]); // the slot waits for the owner
    expect(p.requestsTo('POST /prices')).toHaveLength(1);
    expect(p.state.inventory['loc-1']).toContainEqual(expect.objectContaining({ vendorSku: 'W1', priceFen: 625 }));

    // The owner approves 750: the day's steps count from it now.
    const approval = answers[1].body.actions[0].approval_id as string;
    expect((await t.post(`/ucp/v1/approvals/${approval}`, { approved: true })).status).toBe(200);
    const next = await t.put('/ucp/v1/locations/loc-1/prices', price('W1', 875));
    expect(next.body.updated).toEqual([expect.objectContaining({ price: { amount: 875, currency: 'CNY' } })]);
    expect(next.body.references[0]).toMatchObject({ price: { amount: 750 }, source: 'approved' });
    const tooFar = await t.put('/ucp/v1/locations/loc-1/prices', price('W1', 1000));
    expect(tooFar.body.updated).toEqual([]);
    expect(tooFar.body.messages.map((m: { code: string }) => m.code)).toContain('approval_required');
  });

  it('MCP update_prices: the same rule and the same reference in the answer', async () => {
    const first = await callTool(agent, 'update_prices', { meta: { 'idempotency-key': `w2-1-${db}` }, id: 'loc-1', prices: price('W2', 600) });
    expect(first.status).toBe(200);
    expect(first.body.references).toEqual([expect.objectContaining({ price: { amount: 500, currency: 'CNY' }, source: 'day_start' })]);
    const second = await callTool(agent, 'update_prices', { meta: { 'idempotency-key': `w2-2-${db}` }, id: 'loc-1', prices: price('W2', 700) });
    expect(second.body.updated).toEqual([]);
    expect(codesOf(second)).toContain('approval_required');
    // Down again within the day's band is fine.
    const third = await callTool(agent, 'update_prices', { meta: { 'idempotency-key': `w3-1-${db}` }, id: 'loc-1', prices: price('W3', 400) });
    expect(third.body.updated).toEqual([expect.objectContaining({ price: { amount: 400, currency: 'CNY' } })]);
  });
});
