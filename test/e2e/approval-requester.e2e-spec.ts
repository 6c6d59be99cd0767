import { Fleet, startFleetPartners, startFleetApp } from '../support/fleet';
import { callTool, mcpClient } from '../support/mcp-client';
import { TestApp } from '../support/test-app';

/**
 * Issue 30: an approval records who asked (REST with the token: `api`; an agent over MCP: `mcp`, with its UCP-Agent
 * profile; the console's cookie: `console`, covered by the browser test), and `GET /budget` shows each budget with
 * what is spent against it.
 */
jest.setTimeout(90_000);

type Any = Record<string, any>;
const overCap = (amount: number) => ({ confirm: true, prices: [{ item: { id: 'acme-machine:COLA' }, price: { amount, currency: 'CNY' } }] });

describe.each(['postgres', 'embedded'] as const)('approval requester and budget standing (%s)', (db) => {
  let fleet: Fleet;
  let t: TestApp;
  beforeAll(async () => {
    fleet = await startFleetPartners();
    const vendors = (JSON.parse(fleet.env.SERVICE_HTTP_VENDORS) as { namespace: string; capabilities: string[] }[]).map((v) =>
      v.namespace === 'acme-machine' ? { ...v, capabilities: [...v.capabilities, 'pricing'] } : v,
    );
    t = await startFleetApp(fleet, { SERVICE_HTTP_VENDORS: JSON.stringify(vendors) }, undefined, db);
  });
  afterAll(async () => {
    await t?.close();
    await fleet?.close();
  });

  it('an over-cap price change asked over REST is recorded as the api channel with its credential', async () => {
    const r = await t.put('/ucp/v1/locations/FLEET-1/prices', overCap(9000)).expect(200);
    const id = r.body.actions[0].approval_id as string;
    const a = (await t.get(`/ucp/v1/approvals/${id}`).expect(200)).body.approval;
    expect(a.requested_by).toEqual({ channel: 'api', credential: 'operator' });
  });

  it('one asked by an agent over MCP is recorded as mcp, with the agent profile it named', async () => {
    const client = await mcpClient(t);
    try {
      const r = await callTool(client, 'update_prices', { meta: { 'idempotency-key': `req-${db}`, 'ucp-agent': { profile: 'https://agent.example/profile' } }, id: 'FLEET-2', prices: overCap(9500) });
      expect(r.status).toBe(200);
      const id = (r.body.actions as Any[])[0].approval_id as string;
      const a = (await t.get(`/ucp/v1/approvals/${id}`).expect(200)).body.approval;
      expect(a.requested_by).toEqual({ channel: 'mcp', credential: 'operator', agent: 'https://agent.example/profile' });
    } finally {
      await client.close();
    }
  });

  it('GET /budget answers the limits with what is spent today and this month', async () => {
    const b = (await t.get('/ucp/v1/budget').expect(200)).body;
    expect(b.daily.spent).toEqual({ amount: 0, currency: 'CNY' });
    expect(b.monthly.spent).toEqual({ amount: 0, currency: 'CNY' });
    expect(b.per_order.limit.amount).toBeGreaterThan(0);
    expect(b.daily.limit.amount).toBeGreaterThanOrEqual(b.per_order.limit.amount);
    // A placed run spends: today's spend rises by its cost.
    const run = (await t.post('/ucp/v1/replenishment/runs').expect(201)).body;
    await t.post(`/ucp/v1/replenishment/runs/${run.id}/place`).expect(200);
    const after = (await t.get('/ucp/v1/budget').expect(200)).body;
    expect(after.daily.spent.amount).toBe(run.total_cost_estimate.amount);
  });
});
