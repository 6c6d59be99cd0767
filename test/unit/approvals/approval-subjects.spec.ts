import { readSubject, replenishmentRunSubject, subjectKeyOf } from '../../../src/approvals/approval-subjects';

describe('typed approval subjects', () => {
  const line = { slot_id: 'm1-a', location: 'm1', machine: 'Lobby', item_id: 's:a', title: 'Cola', units: 12, quantity: 1, unit: 'BX', cost_estimate_fen: 4800, supplier: 's' };
  const run = replenishmentRunSubject('run-1', 5000, { limit: 'daily', limitFen: 4000, spentFen: 100 }, { fulfiller: 's', key: 'run1:x', lines: [line], purchaseOrders: [{ supplier: 's', key: 'po1:y' }] });

  it('the run subject is built in one place, with the budget it passes and everything the run moves', () => {
    expect(run).toEqual({
      run_id: 'run-1', total_cost_fen: 5000, limit: 'daily', limit_fen: 4000, spent_fen: 100,
      fulfiller: 's', key: 'run1:x', lines: [line], purchase_orders: [{ supplier: 's', key: 'po1:y' }],
    });
  });

  it('each kind names what it is about by its own field', () => {
    expect(subjectKeyOf('replenishment_run', run)).toBe('run-1');
    const checkout = { session_id: 's-1', namespace: 'acme-supply', total_fen: 1, key: 'k', lines: [] };
    expect(subjectKeyOf('checkout_budget', checkout)).toBe('s-1');
    expect(subjectKeyOf('checkout_probation', checkout)).toBe('s-1');
    const price = { slot_id: 'm1-a', location: 'm1', namespace: 'v-machine', item_id: 'v-machine:a', vendor_sku: 'a', current_fen: 1, price_fen: 2 };
    expect(subjectKeyOf('price_change', price)).toBe('m1-a');
  });

  it('a stored subject reads back typed, or null when it lacks its key (never another kind\'s id)', () => {
    expect(readSubject('replenishment_run', { ...run })).toEqual(run);
    expect(readSubject('replenishment_run', { session_id: 's-1' })).toBeNull();
    expect(readSubject('price_change', { run_id: 'run-1' })).toBeNull();
    expect(readSubject('checkout_budget', { session_id: 42 })).toBeNull();
  });
});
