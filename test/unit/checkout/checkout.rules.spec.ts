import { evaluateSession, EvaluationInput, isEditable, nextStatus, sessionTotal, CHECKOUT_STATUSES } from '../../../src/checkout/checkout.rules';
import { sessionKey } from '../../../src/checkout/checkout-subject.rules';
import { fulfillmentProblems } from '../../../src/checkout/completion/fulfillment.rules';
import { resolverRefusal, resolverShownTo, storedStatusesFor, publicStatus } from '../../../src/approvals/approval.rules';
import { fingerprint, storesOutcome, validKey } from '../../../src/idempotency/idempotency.rules';

const line = { itemId: 'acme-supply:A', vendor: 'acme', quantity: 2, unitPriceFen: 100, increment: 1, problem: null };
const base: EvaluationInput = {
  lines: [line],
  fulfillmentProblems: [],
  guards: { budget: { ok: true }, probation: false, hardNoGo: [false] },
  sessionKey: 'k',
  approvals: [],
};

describe('checkout status chain', () => {
  it('cancel from the three open states only', () => {
    for (const s of CHECKOUT_STATUSES) {
      expect(nextStatus(s, 'cancel')).toBe(['incomplete', 'requires_escalation', 'ready_for_complete'].includes(s) ? 'canceled' : null);
    }
  });
  it('complete: only ready_for_complete is claimed; placed completes; refusal and unreachable go back to ready', () => {
    for (const s of CHECKOUT_STATUSES) expect(nextStatus(s, 'claim')).toBe(s === 'ready_for_complete' ? 'complete_in_progress' : null);
    expect(nextStatus('complete_in_progress', 'placed')).toBe('completed');
    expect(nextStatus('complete_in_progress', 'refused')).toBe('ready_for_complete');
    expect(nextStatus('complete_in_progress', 'unreachable')).toBe('ready_for_complete');
    expect(nextStatus('ready_for_complete', 'placed')).toBeNull();
    expect(nextStatus('completed', 'refused')).toBeNull();
    expect(isEditable('complete_in_progress')).toBe(false);
    expect(isEditable('completed')).toBe(false);
  });
});

describe('checkout evaluation', () => {
  it('ready when everything is there and the guards pass', () => {
    expect(evaluateSession(base)).toEqual({ status: 'ready_for_complete', messages: [], toRequest: [] });
  });
  it('incomplete with a message and path per reason', () => {
    const ev = evaluateSession({ ...base, lines: [{ ...line, problem: 'gone' }, { ...line, increment: 12, quantity: 5 }], fulfillmentProblems: fulfillmentProblems(null), guards: { ...base.guards!, hardNoGo: [false, false] } });
    expect(ev.status).toBe('incomplete');
    expect(ev.messages.map((m) => m.path)).toEqual(['$.line_items[0].item.id', '$.line_items[1].quantity', '$.fulfillment.methods[0].destinations']);
    expect(evaluateSession({ ...base, lines: [] }).messages[0].path).toBe('$.line_items');
  });
  it('hard no-go is unrecoverable; missing rules keep it incomplete', () => {
    const ev = evaluateSession({ ...base, guards: { ...base.guards!, hardNoGo: [true] } });
    expect(ev.status).toBe('incomplete');
    expect(ev.messages[0]).toMatchObject({ code: 'hard_no_go', severity: 'unrecoverable' });
    expect(evaluateSession({ ...base, guards: null, guardProblem: 'x' }).status).toBe('incomplete');
  });
  it('over budget or probation: requires_escalation and asks for each approval once; an approval of these lines readies it', () => {
    const over = { ...base, guards: { budget: { ok: false as const, limit: 'daily' as const, limitFen: 10, spentFen: 5 }, probation: true, hardNoGo: [false] } };
    const ev = evaluateSession(over);
    expect(ev.status).toBe('requires_escalation');
    expect(ev.toRequest).toEqual(['checkout_budget', 'checkout_probation']);
    const pending = evaluateSession({ ...over, approvals: [{ kind: 'checkout_budget', status: 'pending', key: 'k', id: 'a1' }, { kind: 'checkout_probation', status: 'approved', key: 'k', id: 'a2' }] });
    expect(pending).toMatchObject({ status: 'requires_escalation', toRequest: [] });
    const approved = evaluateSession({ ...over, approvals: [{ kind: 'checkout_budget', status: 'approved', key: 'k', id: 'a1' }, { kind: 'checkout_probation', status: 'approved', key: 'k', id: 'a2' }] });
    expect(approved.status).toBe('ready_for_complete');
    const otherLines = evaluateSession({ ...over, approvals: [{ kind: 'checkout_budget', status: 'approved', key: 'other', id: 'a1' }] });
    expect(otherLines.toRequest).toEqual(['checkout_budget', 'checkout_probation']);
  });
  it('totals and keys', () => {
    expect(sessionTotal([{ quantity: 3, unitPriceFen: 4800 }, { quantity: 1, unitPriceFen: null }])).toBe(14400);
    const a = { itemId: 'a', unit: 'BX', quantity: 2, unitPriceFen: 1 };
    const b = { itemId: 'b', unit: 'EA', quantity: 1, unitPriceFen: 3 };
    expect(sessionKey({ namespace: 'n', lines: [b, a], totalFen: 5, fulfillment: null })).toBe(sessionKey({ namespace: 'n', lines: [a, b], totalFen: 5, fulfillment: null }));
  });
});

describe('approval rules', () => {
  const chats = [{ chat_id: 'ops', admins: ['boss'] }];
  const operator = { credential: 'operator', chatId: null } as const;
  const spec = { adminChats: chats, separation: false };
  const separated = { adminChats: chats, separation: true };
  it('dashboard needs only the token; chat_tool needs an admin of a registered admin chat (the spec, without separation)', () => {
    expect(resolverRefusal({ channel: 'dashboard' }, operator, spec)).toBeNull();
    expect(resolverRefusal({ channel: 'chat_tool', chat_id: 'ops', sender_id: 'boss' }, operator, spec)).toBeNull();
    expect(resolverRefusal({ channel: 'chat_tool', chat_id: 'ops', sender_id: 'intern' }, operator, spec)).toMatch(/not an admin/);
    expect(resolverRefusal({ channel: 'chat_tool', chat_id: 'lobby', sender_id: 'boss' }, operator, spec)).toMatch(/not a registered admin chat/);
    expect(resolverRefusal({ channel: 'chat_tool' }, operator, spec)).not.toBeNull();
  });
  it('with separation (issue 26): only the chat\'s own credential resolves on the chat channel; a chat credential never on the dashboard', () => {
    const bot = (chatId: string) => ({ credential: 'chat', chatId }) as const;
    const boss = { channel: 'chat_tool', chat_id: 'ops', sender_id: 'boss' } as const;
    expect(resolverRefusal(boss, operator, separated)).not.toBeNull();
    expect(resolverRefusal(boss, { credential: 'approver', chatId: null }, separated)).not.toBeNull();
    expect(resolverRefusal(boss, bot('ops'), separated)).toBeNull();
    expect(resolverRefusal(boss, bot('night'), separated)).not.toBeNull();
    expect(resolverRefusal(boss, bot('night'), spec)).not.toBeNull();
    expect(resolverRefusal({ ...boss, sender_id: 'intern' }, bot('ops'), separated)).not.toBeNull();
    expect(resolverRefusal({ channel: 'dashboard' }, bot('ops'), separated)).not.toBeNull();
    expect(resolverRefusal({ channel: 'dashboard' }, { credential: 'approver', chatId: null }, separated)).toBeNull();
  });
  it('the admins\' ids are shown to the approver only when separation is on', () => {
    const r = { channel: 'chat_tool', credential: 'chat', chat_id: 'ops', sender_id: 'boss' };
    expect(resolverShownTo(r, operator, true)).toEqual({ channel: 'chat_tool', credential: 'chat' });
    expect(resolverShownTo(r, null, true)).toEqual({ channel: 'chat_tool', credential: 'chat' });
    expect(resolverShownTo(r, { credential: 'approver', chatId: null }, true)).toEqual(r);
    expect(resolverShownTo(r, operator, false)).toEqual(r);
    expect(resolverShownTo(null, operator, true)).toBeNull();
  });
  it('status filters', () => {
    expect(storedStatusesFor('pending')).toEqual(['pending', 'executing']);
    expect(storedStatusesFor('all')).toBeNull();
    expect(publicStatus('executing')).toBe('pending');
  });
});

describe('idempotency rules', () => {
  it('the fingerprint covers operation, resource and body bytes', () => {
    const f = fingerprint('checkout.complete', 'S1', '{"confirm":true}');
    expect(fingerprint('checkout.complete', 'S1', '{"confirm":true}')).toBe(f);
    expect(fingerprint('checkout.complete', 'S2', '{"confirm":true}')).not.toBe(f);
    expect(fingerprint('pricing.update', 'S1', '{"confirm":true}')).not.toBe(f);
    expect(fingerprint('checkout.complete', 'S1', '{"confirm": true}')).not.toBe(f);
  });
  it('stores successes and 502s; releases refusals', () => {
    expect([200, 201, 502].map(storesOutcome)).toEqual([true, true, true]);
    expect([400, 404, 409, 503].map(storesOutcome)).toEqual([false, false, false, false]);
    expect(validKey('abc-123')).toBe(true);
    expect(validKey('')).toBe(false);
    expect(validKey('has space')).toBe(false);
  });
});
