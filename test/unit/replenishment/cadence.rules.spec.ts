import { fleetVisitGap, medianGapDays, nextVisitIn, plus8Day, runReviewPeriod, slotReviewPeriod } from '../../../src/replenishment/plan/cadence.rules';

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

  it('a slot is ordered for the coming visits: those before the next order could arrive, each lasting a visit interval', () => {
    // No visits recorded: the run cadence.
    expect(slotReviewPeriod(1, 2.6, null)).toBe(1);
    // Daily runs, 2.6 days' lead, visited every 6 days, next visit tomorrow: it is in the window (1 + 2.6 + 3 days of
    // slack), the one after (7) is not, so the position covers 1 + 6 = 7 days: R = 7 − 2.6 → 5.
    expect(slotReviewPeriod(1, 2.6, { gapDays: 6, nextInDays: 1 })).toBe(5);
    // Next visit in 5 days: within the window with half an interval of slack (6.6 days): covered until 5 + 6 days.
    expect(slotReviewPeriod(1, 2.6, { gapDays: 6, nextInDays: 5 })).toBe(9);
    // Next visit in 7 days: an order placed at a later review still arrives in time; nothing is needed yet.
    expect(slotReviewPeriod(1, 2.6, { gapDays: 6, nextInDays: 7 })).toBe(0);
    // Weekly runs: the window (12.6 days) holds the visits in 2 and 8 days; the position covers 8 + 6 = 14 days.
    expect(slotReviewPeriod(7, 2.6, { gapDays: 6, nextInDays: 2 })).toBe(12);
    expect(slotReviewPeriod(28, 2, { gapDays: 20, nextInDays: 0 })).toBe(28);
    expect(fleetVisitGap([null, 6, 4, null, 7])).toBe(6);
    expect(fleetVisitGap([null])).toBeNull();
  });

  it('the next visit: the last one plus the interval; overdue or never visited, today', () => {
    expect(nextVisitIn(100, 97, 6)).toBe(3);
    expect(nextVisitIn(100, 90, 6)).toBe(0);
    expect(nextVisitIn(100, null, 6)).toBe(0);
  });

  it('days are +08:00 calendar days', () => {
    // 15:59 UTC is 23:59 in China, 16:00 UTC the next day.
    expect(plus8Day(new Date('2026-11-28T16:00:00Z')) - plus8Day(new Date('2026-11-28T15:59:00Z'))).toBe(1);
  });
});
