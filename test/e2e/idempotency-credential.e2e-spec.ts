import { expectError } from '../support/envelope';
import { BOTH_DATABASES, TestApp } from '../support/test-app';
import { FakePartner, startFakePartner } from '../partners/fake-partner-server';
import { DEST, NS, supplierApp } from '../support/money-fixtures';
import { callTool, codesOf, mcpClient } from '../support/mcp-client';

const APPROVER = 'owner-approver-token-3b9e51c0';

/** Issue 26 item 4: an Idempotency-Key is bound to the credential that first used it. */
describe.each(BOTH_DATABASES)('an Idempotency-Key belongs to the credential that first used it (%s)', (db) => {
  let p: FakePartner;
  let t: TestApp;
  beforeAll(async () => {
    p = await startFakePartner({ token: 'sup-token' });
    t = await supplierApp(p, { SERVICE_APPROVER_TOKEN: APPROVER }, db === 'embedded' ? 'embedded' : undefined);
  });
  afterAll(async () => {
    await t?.close();
    await p?.close();
  });

  it('another credential replaying the key gets 409 idempotency_key_mismatch over REST and MCP, not the first answer; the first caller still gets its replay', async () => {
    const body = { id: `IDEM-${db}`, line_items: [{ item: { id: `${NS}:COLA` }, quantity: 1, quantity_unit: { unit: 'BX' } }], fulfillment: DEST };
    const key = `idem-cred-${db}`;
    const first = await t.post('/ucp/v1/checkout-sessions', body).set('Idempotency-Key', key);
    expect(first.status).toBe(201);
    const other = await t.raw.post('/ucp/v1/checkout-sessions').set('Authorization', `Bearer ${APPROVER}`).set('Idempotency-Key', key).send(body);
    expectError(other, 409, 'idempotency_key_mismatch');
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    expect(JSON.stringify(other.body)).not.toContain('"status":"ready_for_complete"');

    const owner = await mcpClient(t, { Authorization: `Bearer ${APPROVER}` });
    try {
      const viaMcp = await callTool(owner, 'create_checkout', { meta: { 'idempotency-key': key }, checkout: body });
      expect([viaMcp.status, viaMcp.replayed, codesOf(viaMcp)]).toEqual([409, false, ['idempotency_key_mismatch']]);
    } finally {
      await owner.close();
    }
    const again = await t.post('/ucp/v1/checkout-sessions', body).set('Idempotency-Key', key);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
  });
});
