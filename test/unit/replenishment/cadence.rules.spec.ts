import { fleetVisitGap, medianGapDays, plus8Day, runReviewPeriod, slotReviewPeriod } from '../../../src/replenishment/plan/cadence.rules';

describe('the review period actually used', () => {
  it('is the median gap between distinct days once runs were placed on 3 days or more', () => {
    expect(medianGapDays([10, 10, 11])).toBeNull();
    expect(medianGapDays([10, 11, 12, 13])).toBe(1);
    expect(medianGapDays([1, 8, 15, 16])).toBe(7);
    expect(medianGapDays([1, 3, 9, 10, 12])).toBe(2);
  });

  it('falls back to the setting until measured; measured, it is bounded to 1-28 days', () => {
    expect(runReviewPeriod(7, null)).toEqual({ days: 7, source: 'setting' });
    expect(runReviewPeriod(7, 1)).toEqual({ days: 1, source: 'measured_runs' });
    expect(runReviewPeriod(7, 40)).toEqual({ days: 28, source: 'measured_runs' });
  });

  it('a slot waits for its machine: the run cadence plus half a visit interval; the fleet interval stands in', () => {
    expect(slotReviewPeriod(1, null)).toBe(1);
    expect(slotReviewPeriod(1, 6)).toBe(4);
    expect(slotReviewPeriod(7, 3)).toBe(9);
    expect(slotReviewPeriod(20, 30)).toBe(28);
    expect(fleetVisitGap([null, 6, 4, null, 7])).toBe(6);
    expect(fleetVisitGap([null])).toBeNull();
  });

  it('days are +08:00 calendar days', () => {
    // 15:59 UTC is 23:59 in China, 16:00 UTC the next day.
    expect(plus8Day(new Date('2026-11-28T16:00:00Z')) - plus8Day(new Date('2026-11-28T15:59:00Z'))).toBe(1);
  });
});
