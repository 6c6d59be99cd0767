import fc from 'fast-check';
import { retryAfterSeconds } from '../../../src/claims/claim.rules';

/** Issue 27: when a request refused because an attempt is still in progress should ask again. */
describe('retryAfterSeconds', () => {
  const lease = 120_000;
  const timeout = 10_000;
  const now = new Date('2026-11-25T10:00:00Z');
  const ago = (ms: number) => new Date(now.getTime() - ms);

  it('a fresh claim: one partner timeout (a live attempt answers within it)', () => {
    expect(retryAfterSeconds(ago(0), now, lease, timeout)).toBe(10);
  });
  it('a claim near the end of its lease: the time left, rounded up', () => {
    expect(retryAfterSeconds(ago(lease - 2_500), now, lease, timeout)).toBe(3);
  });
  it('a claim past its lease, or without a time: 1 s (it is taken over at once)', () => {
    expect(retryAfterSeconds(ago(lease + 5_000), now, lease, timeout)).toBe(1);
    expect(retryAfterSeconds(null, now, lease, timeout)).toBe(1);
  });
  it('always a whole number of seconds from 1 to the partner timeout', () => {
    fc.assert(
      fc.property(fc.integer({ min: -600_000, max: 600_000 }), fc.integer({ min: 1, max: 600_000 }), (age, partnerTimeout) => {
        const s = retryAfterSeconds(ago(age), now, Math.max(lease, 2 * partnerTimeout), partnerTimeout);
        return Number.isInteger(s) && s >= 1 && s <= Math.ceil(partnerTimeout / 1000);
      }),
    );
  });
});
