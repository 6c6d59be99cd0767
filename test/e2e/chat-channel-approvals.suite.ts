/**
 * Issue 26 item 1: with SERVICE_APPROVER_TOKEN set, the operator token claiming a chat admin resolves nothing; the chat
 * channel needs the chat bot's own credential (SERVICE_CHAT_TOKENS), for its own chat and a registered admin of it.
 *
 * Run on PostgreSQL by chat-channel-approvals.e2e-spec.ts and on the embedded database by
 * chat-channel-approvals-embedded.e2e-spec.ts; the rule without SERVICE_APPROVER_TOKEN (the spec's: the operator token
 * plus a registered admin of a registered chat) on both is chat-channel-approvals-spec-rule.e2e-spec.ts (a file each
 * stays under 20 s). The setup and the parked approvals are shared from here.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expectError } from '../support/envelope';
import { startTestApp, TestApp } from '../support/test-app';
import { FakePartner, startFakePartner } from '../partners/fake-partner-server';
import { DEST, GUARDS, NS } from '../support/money-fixtures';
import { callTool, codesOf, mcpClient } from '../support/mcp-client';

const MACHINE = 'acme-machine';
const APPROVER = 'owner-approver-token-5c81d2e7';
const OPS_BOT = 'chat-bot-ops-token-0a9f31c4';
const NIGHT_BOT = 'chat-bot-night-token-77e2b0d1';
const SKUS = ['A1', 'A2', 'A3', 'A4'];
const CHATS = [
  { chat_id: 'ops-chat', admins: ['alice'] },
  { chat_id: 'night-chat', admins: ['bob'] },
];

/** The production setup of the issue: supplier and machine platform as real HTTP partners, two admin chats. */
export async function chatApp(p: FakePartner, db: 'postgres' | 'embedded', extra: Record<string, string> = {}): Promise<TestApp> {
  p.state.catalog = [{ vendorSku: 'COLA', title: 'Cola 330ml', packSize: 24, packPriceFen: 4800, eachPriceFen: 200, stock: 500_000 }];
  p.state.inventory['loc-1'] = SKUS.map((vendorSku) => ({ vendorSku, title: `Cola ${vendorSku}`, priceFen: 350, stock: 4 }));
  const t = await startTestApp({
    db,
    env: {
      SERVICE_ENV: 'production',
      SERVICE_HTTP_VENDORS: JSON.stringify([
        { namespace: NS, baseUrl: p.url, token: p.token, capabilities: ['catalog', 'orders'] },
        { namespace: MACHINE, baseUrl: p.url, token: p.token, capabilities: ['inventory', 'ledger', 'pricing'] },
      ]),
      SERVICE_DEFAULT_SUPPLY_NAMESPACE: NS,
      SERVICE_DEFAULT_MACHINE_NAMESPACE: MACHINE,
      SERVICE_ADMIN_CHATS: JSON.stringify(CHATS),
      SERVICE_GUARDS: JSON.stringify({ ...GUARDS, budget: { perOrderFen: 100_000, dailyFen: 100_000_000, monthlyFen: 1_000_000_000 } }),
      ...extra,
    },
  });
  expect((await t.put('/ucp/v1/locations/loc-1', { name: 'Machine 1', namespace: MACHINE })).status).toBeLessThan(300);
  expect((await t.post('/ucp/v1/locations/sync', {})).status).toBe(200);
  return t;
}

/** A 4,800,000-fen purchase order (48 times the per-order limit) and a 350 → 3,500 fen price move, both parked. */
export async function parkBoth(t: TestApp, tag: string, sku: string): Promise<{ order: string; price: string; session: string }> {
  const session = `BIG-${tag}`;
  const s = await t.post('/ucp/v1/checkout-sessions', { id: session, line_items: [{ item: { id: `${NS}:COLA` }, quantity: 1000, quantity_unit: { unit: 'BX' } }], fulfillment: DEST });
  expect(s.status).toBe(201);
  expect(s.body.status).toBe('requires_escalation');
  const approvals = (await t.get('/ucp/v1/approvals?kind=checkout_budget')).body.approvals as { id: string; subject: { session_id: string } }[];
  const order = approvals.find((a) => a.subject.session_id === session)!.id;
  const res = await t.put('/ucp/v1/locations/loc-1/prices', { confirm: true, prices: [{ item: { id: `${MACHINE}:${sku}` }, price: { amount: 3500, currency: 'CNY' } }] });
  expect(res.status).toBe(200);
  expect(res.body.updated).toEqual([]);
  return { order, price: res.body.actions[0].approval_id as string, session };
}

export const claim = (sender: string, chat = 'ops-chat') => ({ approved: true, resolver: { channel: 'chat_tool', chat_id: chat, sender_id: sender } });

export function separationOfDuties(db: 'postgres' | 'embedded'): void {
  describe(`chat-channel approvals with separation of duties (production, ${db})`, () => {
    let p: FakePartner;
    let t: TestApp;
    let agent: Client;
    beforeAll(async () => {
      p = await startFakePartner({ token: 'partner-token' });
      t = await chatApp(p, db, { SERVICE_APPROVER_TOKEN: APPROVER, SERVICE_CHAT_TOKENS: JSON.stringify({ 'ops-chat': OPS_BOT, 'night-chat': NIGHT_BOT }) });
      agent = await mcpClient(t);
    });
    afterAll(async () => {
      await agent?.close();
      await t?.close();
      await p?.close();
    });
    const as = (token: string) => ({
      post: (path: string, body: unknown) => t.raw.post(path).set('Authorization', `Bearer ${token}`).send(body as object),
      get: (path: string) => t.raw.get(path).set('Authorization', `Bearer ${token}`),
    });

    it('the operator token claiming a chat admin is 403 over REST and MCP: no supplier POST, no platform price change', async () => {
      const { order, price, session } = await parkBoth(t, `op-${db}`, 'A1');
      for (const id of [order, price]) {
        expectError(await t.post(`/ucp/v1/approvals/${id}`, claim('alice')), 403, 'forbidden');
        const viaMcp = await callTool(agent, 'resolve_approval', { id, resolution: claim('alice') });
        expect([viaMcp.status, viaMcp.isError, codesOf(viaMcp)]).toEqual([403, true, ['forbidden']]);
        // The approver's own token resolves on no chat either: the chat channel is the bot's.
        expectError(await as(APPROVER).post(`/ucp/v1/approvals/${id}`, claim('alice')), 403, 'forbidden');
        expect((await t.get(`/ucp/v1/approvals/${id}`)).body.approval.status).toBe('pending');
      }
      expectError(await t.post(`/ucp/v1/checkout-sessions/${session}/complete`, { confirm: true }), 409, 'approval_required');
      expect(p.requestsTo('POST /orders')).toHaveLength(0);
      expect(p.requestsTo('POST /prices')).toHaveLength(0);
      expect(p.state.inventory['loc-1']).toContainEqual(expect.objectContaining({ vendorSku: 'A1', priceFen: 350 }));
    });

    it('the chat bot resolves with its own credential for its own chat and an admin of it; another chat\'s bot cannot', async () => {
      const { order, price, session } = await parkBoth(t, `bot-${db}`, 'A2');
      // The night chat's bot claiming the ops chat, or its own chat with an ops admin: refused.
      expectError(await as(NIGHT_BOT).post(`/ucp/v1/approvals/${price}`, claim('alice')), 403, 'forbidden');
      expectError(await as(NIGHT_BOT).post(`/ucp/v1/approvals/${price}`, claim('alice', 'night-chat')), 403, 'forbidden');
      // The bot's credential on the dashboard channel, or without a resolver: refused.
      expectError(await as(OPS_BOT).post(`/ucp/v1/approvals/${price}`, { approved: true }), 403, 'forbidden');
      expect(p.requestsTo('POST /prices')).toHaveLength(0);

      const ok = await as(OPS_BOT).post(`/ucp/v1/approvals/${price}`, claim('alice'));
      expect(ok.status).toBe(200);
      expect(ok.body.approval.status).toBe('approved');
      expect(ok.body.approval.resolver).toEqual({ channel: 'chat_tool', credential: 'chat' }); // the ids are the approver's to read
      expect(p.requestsTo('POST /prices')).toHaveLength(1);

      const bot = await mcpClient(t, { Authorization: `Bearer ${OPS_BOT}` });
      try {
        const viaMcp = await callTool(bot, 'resolve_approval', { id: order, resolution: claim('alice') });
        expect([viaMcp.status, viaMcp.body.approval]).toEqual([200, expect.objectContaining({ status: 'approved' })]);
        // A chat credential reads and resolves approvals only: every other tool and route is 403.
        const other = await callTool(bot, 'list_namespaces', {});
        expect([other.status, codesOf(other)]).toEqual([403, ['forbidden']]);
      } finally {
        await bot.close();
      }
      expectError(await as(OPS_BOT).get('/ucp/v1/namespaces'), 403, 'forbidden');
      expectError(await as(OPS_BOT).post(`/ucp/v1/checkout-sessions/${session}/complete`, { confirm: true }), 403, 'forbidden');
      expect(p.requestsTo('POST /orders')).toHaveLength(0);
    });

    it('refusals are one generic text: an unknown chat, an unknown sender and a wrong credential read the same', async () => {
      const { price } = await parkBoth(t, `enum-${db}`, 'A3');
      const texts = new Set<string>();
      for (const [token, body] of [
        [OPS_BOT, claim('mallory')],
        [OPS_BOT, claim('alice', 'no-such-chat')],
        [OPS_BOT, claim('bob', 'night-chat')],
        [t.token, claim('alice')],
      ] as const) {
        const res = await as(token).post(`/ucp/v1/approvals/${price}`, body);
        expectError(res, 403, 'forbidden');
        texts.add(res.body.messages[0].content as string);
      }
      expect(texts.size).toBe(1);
      const [text] = [...texts];
      for (const id of ['mallory', 'no-such-chat', 'night-chat', 'alice', 'bob']) expect(text).not.toContain(id);
      const refusedEvents = JSON.stringify((await t.get('/ucp/v1/events?kind=approval.resolved')).body.events);
      for (const id of ['mallory', 'no-such-chat']) expect(refusedEvents).not.toContain(id);
    });

    it('GET /approvals shows the admins\' chat and sender ids to the approver only', async () => {
      const { price } = await parkBoth(t, `ids-${db}`, 'A4');
      expect((await as(OPS_BOT).post(`/ucp/v1/approvals/${price}`, { approved: false, resolver: { channel: 'chat_tool', chat_id: 'ops-chat', sender_id: 'alice' } })).status).toBe(200);
      const byOperator = (await t.get('/ucp/v1/approvals?status=all')).body.approvals.find((a: { id: string }) => a.id === price);
      expect(byOperator.resolver).toEqual({ channel: 'chat_tool', credential: 'chat' });
      expect((await t.get(`/ucp/v1/approvals/${price}`)).body.approval.resolver).toEqual({ channel: 'chat_tool', credential: 'chat' });
      const viaMcp = await callTool(agent, 'get_approval', { id: price });
      expect((viaMcp.body.approval as { resolver: unknown }).resolver).toEqual({ channel: 'chat_tool', credential: 'chat' });
      const byOwner = (await as(APPROVER).get('/ucp/v1/approvals?status=all')).body.approvals.find((a: { id: string }) => a.id === price);
      expect(byOwner.resolver).toEqual({ channel: 'chat_tool', credential: 'chat', chat_id: 'ops-chat', sender_id: 'alice' });
      const events = JSON.stringify((await t.get('/ucp/v1/events?kind=approval.resolved')).body.events);
      expect(events).not.toContain('alice');
    });
  });
}
