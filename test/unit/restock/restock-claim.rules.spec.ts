import { answeredAccepted, restockReadable, restockRecoveryStep, storedRequestStep } from '../../../src/restock/restock-claim.rules';

describe('a request under a stored reference', () => {
  const step = (status: string, sameRequest = true, claimExpired = false) => storedRequestStep({ status, sameRequest, claimExpired });

  it('another body under the reference is a conflict, whatever the state', () => {
    for (const s of ['sending', 'failed', 'sent', 'pending', 'completed']) expect(step(s, false, true)).toBe('conflict');
  });

  it('an answered request replays; a failed one may be sent again', () => {
    for (const s of ['sent', 'pending', 'in_progress', 'completed', 'cancelled']) expect(step(s, true, true)).toBe('replay');
    expect(step('failed')).toBe('resend');
  });

  it('sending: in progress within the lease; past it (or without a live claim) it is recovered by reading, never resent', () => {
    expect(step('sending', true, false)).toBe('in_progress');
    expect(step('sending', true, true)).toBe('recover');
  });
});

describe('recovery of an interrupted send', () => {
  it('reads GET /restock/{ref} only where the platform promises it (replenishment.order)', () => {
    expect(restockReadable(new Set(['inventory', 'replenishment.order']))).toBe(true);
    expect(restockReadable(new Set(['inventory', 'replenishment.recommend', 'replenishment.order']))).toBe(true);
    expect(restockReadable(new Set(['inventory', 'replenishment.recommend']))).toBe(false);
  });

  it('found → accepted (an order pending, a recommendation sent); a clear "ref unknown" → failed; anything else → left', () => {
    expect(restockRecoveryStep(true, 'placed')).toEqual({ step: 'accept', status: 'pending' });
    expect(restockRecoveryStep(false, 'placed')).toEqual({ step: 'accept', status: 'sent' });
    expect(restockRecoveryStep(true, 'not_placed')).toEqual({ step: 'fail' });
    expect(restockRecoveryStep(false, 'not_placed')).toEqual({ step: 'fail' });
    expect(restockRecoveryStep(true, 'unknown')).toEqual({ step: 'leave' });
    expect(restockRecoveryStep(false, 'unknown')).toEqual({ step: 'leave' });
  });

  it('a platform that cannot be asked: an order is never settled blind; a recommendation is settled unconfirmed', () => {
    expect(restockRecoveryStep(true, 'not_readable')).toEqual({ step: 'leave' });
    expect(restockRecoveryStep(false, 'not_readable')).toEqual({ step: 'unconfirmed' });
  });

  it('accepted: the platform count when recorded, the line count when read back, 0 when unconfirmed', () => {
    expect(answeredAccepted({ accepted: 2, recovered: null, lineCount: 3 })).toBe(2);
    expect(answeredAccepted({ accepted: null, recovered: 'read', lineCount: 3 })).toBe(3);
    expect(answeredAccepted({ accepted: null, recovered: 'unconfirmed', lineCount: 3 })).toBe(0);
    expect(answeredAccepted({ accepted: null, recovered: null, lineCount: 3 })).toBe(0);
  });
});
