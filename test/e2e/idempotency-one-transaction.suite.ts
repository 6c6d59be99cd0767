/**
 * Issue 21: an idempotent checkout create writes its Idempotency-Key and stored answer in the create's own transaction
 * (the create calls no money-moving partner), so the key costs one statement and no commit of its own.
 *
 * Run on PostgreSQL by idempotency-one-transaction.e2e-spec.ts (with the cases across instances, PostgreSQL only) and
 * on the embedded database by idempotency-one-transaction-embedded.e2e-spec.ts (a file each stays under 20 s).
 */
import { FakePartner, startFakePartner } from '../partners/fake-partner-server';
import { DEST, NS, supplierApp } from '../support/money-fixtures';
import { countQueries } from '../support/query-counter';
import type { TestApp } from '../support/test-app';

/** The create's one line: a supplier item the fake partner's catalog has. */
export const LINES = [{ item: { id: `${NS}:WATER` }, quantity: 1 }];

export function oneTransaction(db: 'postgres' | 'embedded'): void {
  describe(`idempotent create in one transaction (${db})`, () => {
    let p: FakePartner;
    let a: TestApp;
    beforeAll(async () => {
      p = await startFakePartner({ token: 'sup-token' });
      a = await supplierApp(p, {}, db === 'embedded' ? 'embedded' : undefined);
      await a.post('/ucp/v1/checkout-sessions', { line_items: LINES }).expect(201); // the supplier catalog is cached
    });
    afterAll(async () => {
      await a.close();
      await p.close();
    });

    it('the key and its answer cost no statement: the session insert carries them, inside the create transaction', async () => {
      const plain = countQueries();
      await a.post('/ucp/v1/checkout-sessions', { line_items: LINES, fulfillment: DEST }).expect(201);
      plain.stop();
      const keyed = countQueries();
      const res = await a.post('/ucp/v1/checkout-sessions', { line_items: LINES, fulfillment: DEST }).set('Idempotency-Key', 'one-tx-1');
      keyed.stop();
      expect(res.status).toBe(201);
      const statements = keyed.statements();
      expect(keyed.transactions()).toBe(1);
      expect(statements.length).toBe(plain.statements().length);
      const begin = statements.findIndex((q) => /^\s*(START TRANSACTION|BEGIN)\b/i.test(q));
      const commit = statements.findIndex((q) => /^\s*COMMIT\b/i.test(q));
      const keyStatements = statements.map((q, i) => ({ q, i })).filter(({ q }) => /idempotency_keys/i.test(q));
      expect(keyStatements).toHaveLength(1);
      expect(keyStatements[0].q).toMatch(/INSERT INTO "checkout_sessions"/);
      expect(keyStatements[0].i).toBeGreaterThan(begin);
      expect(keyStatements[0].i).toBeLessThan(commit);

      const replay = await a.post('/ucp/v1/checkout-sessions', { line_items: LINES, fulfillment: DEST }).set('Idempotency-Key', 'one-tx-1');
      expect(replay.status).toBe(201);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body).toEqual(res.body);
      const other = await a.post('/ucp/v1/checkout-sessions', { line_items: LINES }).set('Idempotency-Key', 'one-tx-1');
      expect(other.status).toBe(409);
      expect(other.body.messages[0].code).toBe('idempotency_key_mismatch');
    });

    it('a chosen id that exists under a replayed key answers the replay; a refusal under a new key stores nothing', async () => {
      const first = await a.post('/ucp/v1/checkout-sessions', { id: 'ONE-TX-ID', line_items: LINES }).set('Idempotency-Key', 'one-tx-2');
      expect(first.status).toBe(201);
      const replay = await a.post('/ucp/v1/checkout-sessions', { id: 'ONE-TX-ID', line_items: LINES }).set('Idempotency-Key', 'one-tx-2');
      expect(replay.status).toBe(201);
      expect(replay.body).toEqual(first.body);
      const taken = await a.post('/ucp/v1/checkout-sessions', { id: 'ONE-TX-ID', line_items: LINES }).set('Idempotency-Key', 'one-tx-3');
      expect(taken.status).toBe(409);
      expect(taken.body.messages[0].code).toBe('already_exists');
      // The refusal was not stored: the key is free for the corrected request.
      const fixed = await a.post('/ucp/v1/checkout-sessions', { id: 'ONE-TX-ID-2', line_items: LINES }).set('Idempotency-Key', 'one-tx-3');
      expect(fixed.status).toBe(201);
      expect(fixed.body.id).toBe('ONE-TX-ID-2');
    });
  });
}
