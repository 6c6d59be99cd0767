import { APPROVAL_MACHINE } from '../../../src/approvals/approval.rules';
import { CHECKOUT_MACHINE, CheckoutStatus, EDITABLE_STATUSES } from '../../../src/checkout/checkout.rules';
import { IllegalTransition, StateMachine, stateMachine } from '../../../src/common/state-machine.rules';
import { SPEND_MACHINE } from '../../../src/guards/guard.rules';
import { IDEMPOTENCY_MACHINE } from '../../../src/idempotency/idempotency.rules';
import { RUN_MACHINE } from '../../../src/replenishment/runs/run.rules';
import { RESTOCK_MACHINE } from '../../../src/restock/restock.rules';

/** Every pair of states is either in `legal` or must throw: no move is left unchecked. */
function expectExactly<S extends string>(m: StateMachine<S>, legal: [S, S][]) {
  const key = (a: string, b: string) => `${a} -> ${b}`;
  const allowed = new Set(legal.map(([a, b]) => key(a, b)));
  for (const from of m.states) {
    for (const to of m.states) {
      if (allowed.has(key(from, to))) {
        expect(m.move(from, to)).toBe(to);
      } else {
        expect(m.can(from, to)).toBe(false);
        expect(() => m.move(from, to)).toThrow(IllegalTransition);
      }
    }
  }
}

describe('state machines (issue 9, step 6)', () => {
  it('the generic machine: legal moves return the target, anything else (an unknown state too) throws', () => {
    const m = stateMachine<'a' | 'b'>('demo', { a: ['b'], b: [] });
    expect(m.move('a', 'b')).toBe('b');
    expect(() => m.move('b', 'a')).toThrow('demo: b -> a is not a legal move');
    expect(() => m.move('zzz', 'b')).toThrow(IllegalTransition);
    expect(m.sourcesOf('b')).toEqual(['a']);
  });

  it('checkout sessions: evaluation among the editable states, cancel, claim, the answer, a late acceptance', () => {
    const editable = [...EDITABLE_STATUSES];
    const legal: [CheckoutStatus, CheckoutStatus][] = [
      ...editable.flatMap((a) => editable.map((b) => [a, b] as [CheckoutStatus, CheckoutStatus])),
      ...editable.map((a) => [a, 'canceled'] as [CheckoutStatus, CheckoutStatus]),
      ...editable.map((a) => [a, 'completed'] as [CheckoutStatus, CheckoutStatus]),
      ['ready_for_complete', 'complete_in_progress'],
      ['complete_in_progress', 'completed'],
      ['complete_in_progress', 'ready_for_complete'],
      ['canceled', 'completed'],
    ];
    expectExactly(CHECKOUT_MACHINE, legal);
    expect(CHECKOUT_MACHINE.sourcesOf('canceled')).toEqual(editable);
  });

  it('replenishment runs', () => {
    expectExactly(RUN_MACHINE, [
      ['awaiting_approval', 'ready'],
      ['awaiting_approval', 'rejected'],
      ['ready', 'awaiting_approval'],
      ['ready', 'placing'],
      ['ready', 'placed'],
      ['placing', 'placed'],
      ['placing', 'ready'],
      ['placed', 'delivered'],
      ['placed', 'closed'],
      ['awaiting_approval', 'cancelled'],
      ['ready', 'cancelled'],
    ]);
  });

  it('approvals: claimed for execution, then decided or pending again', () => {
    expectExactly(APPROVAL_MACHINE, [
      ['pending', 'rejected'],
      ['pending', 'executing'],
      ['executing', 'approved'],
      ['executing', 'rejected'],
      ['executing', 'pending'],
    ]);
  });

  it('restock requests: sending, then failed / sent / the platform open states until completed or cancelled', () => {
    const open = ['pending', 'in_progress'] as const;
    const platform = ['pending', 'in_progress', 'completed', 'cancelled'] as const;
    expectExactly(RESTOCK_MACHINE, [
      ['sending', 'failed'],
      ['sending', 'sent'],
      ['sending', 'pending'],
      ['failed', 'sending'],
      ...open.flatMap((a) => platform.map((b) => [a, b] as [(typeof open)[number], (typeof platform)[number]])),
    ]);
  });

  it('idempotency keys: in flight (taken over in flight), then done', () => {
    expectExactly(IDEMPOTENCY_MACHINE, [
      ['in_flight', 'in_flight'],
      ['in_flight', 'done'],
    ]);
  });

  it('spend ledger rows: money spent is never held or uncertain again', () => {
    expectExactly(SPEND_MACHINE, [
      ['held', 'held'],
      ['held', 'spent'],
      ['held', 'uncertain'],
      ['uncertain', 'held'],
      ['uncertain', 'spent'],
      ['uncertain', 'uncertain'],
      ['spent', 'spent'],
    ]);
    expect(SPEND_MACHINE.sourcesOf('held')).toEqual(['held', 'uncertain']);
  });
});
