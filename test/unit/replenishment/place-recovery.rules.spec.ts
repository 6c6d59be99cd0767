import { machineRunRecovery, placeClaimExpired, placeLeaseMs, placeRecoveryOutcome } from '../../../src/replenishment/run.rules';

describe('recovery of an interrupted place (rules)', () => {
  it('the lease is max(2 minutes, 2 × the partner timeout)', () => {
    expect(placeLeaseMs(10_000)).toBe(120_000);
    expect(placeLeaseMs(90_000)).toBe(180_000);
  });

  it('a claim is expired at the lease, or when its time is unknown', () => {
    const at = new Date('2025-01-01T00:00:00Z');
    expect(placeClaimExpired(at, new Date(at.getTime() + 119_999), 120_000)).toBe(false);
    expect(placeClaimExpired(at, new Date(at.getTime() + 120_000), 120_000)).toBe(true);
    expect(placeClaimExpired(null, at, 120_000)).toBe(true);
  });

  it('a supplier read: found → placed, refused (ref unknown) → not_placed, anything else → unknown', () => {
    expect(placeRecoveryOutcome({ found: true })).toBe('placed');
    expect(placeRecoveryOutcome({ failed: 'rejected' })).toBe('not_placed');
    for (const f of ['unreachable', 'unauthorized', 'malformed', 'other'] as const) expect(placeRecoveryOutcome({ failed: f })).toBe('unknown');
  });

  it('a machine-restock run: all orders accepted → placed; one still sending → unknown; otherwise back to ready', () => {
    expect(machineRunRecovery(['pending', 'completed', 'in_progress'])).toBe('placed');
    expect(machineRunRecovery(['pending', 'sending'])).toBe('unknown');
    expect(machineRunRecovery(['pending', 'failed'])).toBe('not_placed');
    expect(machineRunRecovery(['pending', null])).toBe('not_placed');
    expect(machineRunRecovery([])).toBe('not_placed');
  });
});
