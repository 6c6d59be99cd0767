import { expectError } from '../support/envelope';
import { BOTH_DATABASES } from '../support/test-app';
import { startFakePartner } from '../partners/fake-partner-server';
import { chatApp, claim, parkBoth } from './chat-channel-approvals.suite';

/**
 * Issue 26 item 1, without SERVICE_APPROVER_TOKEN: the spec's rule (the operator token plus a registered admin of a
 * registered chat) on both databases. With it set (separation of duties) is chat-channel-approvals.suite.ts, run by
 * chat-channel-approvals.e2e-spec.ts and chat-channel-approvals-embedded.e2e-spec.ts.
 */
describe.each(BOTH_DATABASES)('chat-channel approvals without SERVICE_APPROVER_TOKEN: the spec\'s rule (%s)', (db) => {
  it('the operator token plus a registered admin in a registered chat resolves; the ids are shown; refusals stay generic', async () => {
    const p = await startFakePartner({ token: 'partner-token' });
    const t = await chatApp(p, db);
    try {
      const { price } = await parkBoth(t, `spec-${db}`, 'A1');
      const unknownSender = await t.post(`/ucp/v1/approvals/${price}`, claim('mallory'));
      const unknownChat = await t.post(`/ucp/v1/approvals/${price}`, claim('alice', 'no-such-chat'));
      expectError(unknownSender, 403, 'forbidden');
      expectError(unknownChat, 403, 'forbidden');
      expect(unknownSender.body.messages[0].content).toBe(unknownChat.body.messages[0].content);
      const ok = await t.post(`/ucp/v1/approvals/${price}`, claim('alice'));
      expect(ok.status).toBe(200);
      expect(ok.body.approval.resolver).toEqual({ channel: 'chat_tool', credential: 'operator', chat_id: 'ops-chat', sender_id: 'alice' });
      expect(p.requestsTo('POST /prices')).toHaveLength(1);
    } finally {
      await t.close();
      await p.close();
    }
  });
});
