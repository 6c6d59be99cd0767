import { placementFailureNote, sameClaim, supplyOrderRequest, withoutOutcomeNotes } from '../../../src/checkout/completion/checkout-complete.rules';
import { stateConflict } from '../../../src/checkout/checkout.rules';

describe('the supplier request of a session', () => {
  it('orders each line by its vendor sku, a box as a pack, ref = the session id', () => {
    const req = supplyOrderRequest({
      id: 's1',
      lineItems: [
        { item_id: 'acme-supply:A-1', quantity: 2, unit: 'BX' },
        { item_id: 'acme-supply:B', quantity: 5, unit: 'EA' },
      ],
      fulfillment: { methods: [{ type: 'pickup', destinations: [{ id: 'd1' }, { id: 'd2' }] }] },
    });
    expect(req).toEqual({
      ref: 's1',
      lines: [
        { vendorSku: 'A-1', quantity: 2, unit: 'pack' },
        { vendorSku: 'B', quantity: 5, unit: 'each' },
      ],
      fulfillment: { method: 'pickup', destination: { id: 'd1' } },
    });
  });

  it('ships when the session names no method, without a destination when none is given', () => {
    expect(supplyOrderRequest({ id: 's2', lineItems: [], fulfillment: null }).fulfillment).toEqual({ method: 'shipping' });
    expect(supplyOrderRequest({ id: 's3', lineItems: [], fulfillment: { methods: [{ type: 'shipping' }] } }).fulfillment).toEqual({ method: 'shipping' });
  });
});

describe('the claim that holds a session', () => {
  const at = new Date('2026-11-25T10:00:00.123Z');
  it('holds while complete_in_progress with the same claim time', () => {
    expect(sameClaim({ status: 'complete_in_progress', claimedAt: new Date(at.getTime()) }, at)).toBe(true);
    expect(sameClaim({ status: 'complete_in_progress', claimedAt: new Date(at.getTime() + 1) }, at)).toBe(false);
    expect(sameClaim({ status: 'ready_for_complete', claimedAt: at }, at)).toBe(false);
    expect(sameClaim({ status: 'complete_in_progress', claimedAt: null }, null)).toBe(true);
  });

  it('a new supplier outcome replaces the notes of the previous one only', () => {
    const kept = { code: 'missing' };
    expect(withoutOutcomeNotes([{ code: 'supplier_rejected' }, kept, { code: 'order_uncertain' }, { code: 'order_not_placed' }])).toEqual([kept]);
  });
});

describe('the note of a failed supplier call', () => {
  it('a refusal is recoverable; an unreachable supplier leaves the order uncertain under the same ref', () => {
    expect(placementFailureNote(true, 'no stock', 's1')).toMatchObject({ code: 'supplier_rejected', severity: 'recoverable' });
    const uncertain = placementFailureNote(false, 'timeout', 's1');
    expect(uncertain).toMatchObject({ code: 'order_uncertain', severity: 'requires_buyer_review' });
    expect(uncertain.content).toContain('same ref (s1)');
  });
});

describe('a session in a state the operation does not accept', () => {
  it('a session in play comes back beside the refusal; a finished one does not', () => {
    const open = { id: 's1', status: 'complete_in_progress' };
    expect(stateConflict(open)).toMatchObject({ code: 'complete_in_progress', subject: open });
    expect(stateConflict({ id: 's1', status: 'ready_for_complete' }).code).toBe('invalid_state');
    const done = stateConflict({ id: 's1', status: 'completed' });
    expect(done.code).toBe('invalid_state');
    expect(done.subject).toBeUndefined();
    expect(done.message).toContain('GET /orders/s1');
  });
});
