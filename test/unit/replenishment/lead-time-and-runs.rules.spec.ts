import { leadTimeOf } from '../../../src/forecasting/lead-time.rules';
import { isRunStatus, placeRefusal, receiveRefusal, stockAfterDelivery } from '../../../src/replenishment/runs/run.rules';
import { checkRestockLines, restockFingerprint } from '../../../src/restock/restock.rules';

const DAY = 86_400_000;
const t0 = Date.parse('2026-11-01T00:00:00Z');
const sample = (startDay: number, days: number) => ({ startedAt: new Date(t0 + startDay * DAY), finishedAt: new Date(t0 + (startDay + days) * DAY) });

describe('lead time', () => {
  it('is the mean of the most recent completed deliveries', () => {
    // Mean 2, sample standard deviation √((1 + 0 + 1) / 2) = 1.
    expect(leadTimeOf([sample(0, 1), sample(1, 2), sample(2, 3)], { days: 2, maxSamples: 10 })).toEqual({ days: 2, sigmaDays: 1, source: 'measured', samples: 3 });
    // Only the two latest finished: 2 and 3 days → 2.5, σ = √0.5 = 0.71.
    expect(leadTimeOf([sample(0, 1), sample(1, 2), sample(2, 3)], { days: 2, maxSamples: 2 })).toEqual({ days: 2.5, sigmaDays: 0.71, source: 'measured', samples: 2 });
    // One sample has no spread.
    expect(leadTimeOf([sample(0, 1.5)], { days: 2, maxSamples: 10 })).toEqual({ days: 1.5, sigmaDays: 0, source: 'measured', samples: 1 });
  });
  it('is stated without history (and ignores a delivery recorded before it was placed)', () => {
    expect(leadTimeOf([], { days: 2, maxSamples: 10 })).toEqual({ days: 2, sigmaDays: 0, source: 'stated', samples: 0 });
    expect(leadTimeOf([], { days: 2, sigmaDays: 1, maxSamples: 10 })).toEqual({ days: 2, sigmaDays: 1, source: 'stated', samples: 0 });
    expect(leadTimeOf([{ startedAt: new Date(t0 + DAY), finishedAt: new Date(t0) }], { days: 3, maxSamples: 10 }).source).toBe('stated');
  });
});

describe('run states', () => {
  it('place: only a ready run; placed or delivered answer already_placed; pending approval answers approval_required', () => {
    expect(placeRefusal('ready')).toBeNull();
    expect(placeRefusal('placed')?.code).toBe('already_placed');
    expect(placeRefusal('delivered')?.code).toBe('already_placed');
    expect(placeRefusal('placing')?.code).toBe('already_placed');
    expect(placeRefusal('awaiting_approval')?.code).toBe('approval_required');
    expect(placeRefusal('rejected')?.code).toBe('invalid_state');
  });
  it('receive: only a placed run; delivered answers already_delivered', () => {
    expect(receiveRefusal('placed')).toBeNull();
    expect(receiveRefusal('delivered')?.code).toBe('already_delivered');
    expect(receiveRefusal('ready')?.code).toBe('invalid_state');
  });
  it('knows its statuses', () => {
    expect(isRunStatus('placed')).toBe(true);
    expect(isRunStatus('shipped')).toBe(false);
  });
  it('stock rises by the delivery, capped at capacity when known, never lowered', () => {
    expect(stockAfterDelivery(3, 10, 8)).toBe(8);
    expect(stockAfterDelivery(3, 4, 8)).toBe(7);
    expect(stockAfterDelivery(3, 10, null)).toBe(13);
    expect(stockAfterDelivery(9, 5, 8)).toBe(9);
    expect(stockAfterDelivery(2, 0, 8)).toBe(2);
  });
});

describe('restock lines', () => {
  const ns = 'acme-machine';
  it('accepts machine ids of the location namespace with a reason on recommendations', () => {
    const r = checkRestockLines([{ item: { id: 'acme-machine:A1' }, quantity: 2, reason: 'low' }], false, ns);
    expect(r).toEqual({ ok: true, value: { namespace: ns, lines: [{ vendorSku: 'A1', quantity: 2, reason: 'low' }] } });
    expect(checkRestockLines([{ item: { id: 'acme-machine:A1' }, quantity: 2 }], true, ns).ok).toBe(true);
  });
  it('refuses a recommendation without a reason, a long reason, a bad quantity, mixed or foreign namespaces', () => {
    const problem = (r: ReturnType<typeof checkRestockLines>) => (r.ok ? null : r.problem);
    expect(problem(checkRestockLines([{ item: { id: 'acme-machine:A1' }, quantity: 2 }], false, ns))).toMatchObject({ code: 'missing', path: '$.line_items[0].reason' });
    expect(problem(checkRestockLines([{ item: { id: 'acme-machine:A1' }, quantity: 2, reason: 'x'.repeat(101) }], true, ns))?.code).toBe('invalid');
    expect(problem(checkRestockLines([{ item: { id: 'acme-machine:A1' }, quantity: 0, reason: 'r' }], false, ns))).toMatchObject({ code: 'invalid', path: '$.line_items[0].quantity' });
    expect(problem(checkRestockLines([{ item: { id: 'acme-machine:A1' }, quantity: 1.5, reason: 'r' }], false, ns))?.code).toBe('invalid');
    expect(
      problem(checkRestockLines([{ item: { id: 'acme-machine:A1' }, quantity: 1, reason: 'r' }, { item: { id: 'beta-machine:B' }, quantity: 1, reason: 'r' }], false, ns)),
    ).toMatchObject({ code: 'namespace_mismatch', path: '$.line_items[1].item.id' });
    expect(problem(checkRestockLines([{ item: { id: 'acme-supply:A1' }, quantity: 1, reason: 'r' }], false, ns))?.code).toBe('namespace_mismatch');
    expect(problem(checkRestockLines([{ item: { id: 'nonsense' }, quantity: 1, reason: 'r' }], false, ns))?.code).toBe('invalid');
  });
  it('fingerprints the request', () => {
    const l = [{ vendorSku: 'A1', quantity: 2 }];
    expect(restockFingerprint('L1', true, l)).toBe(restockFingerprint('L1', true, [{ vendorSku: 'A1', quantity: 2 }]));
    expect(restockFingerprint('L1', true, l)).not.toBe(restockFingerprint('L1', false, l));
  });
});
