import { dayRange, fillDays, plus8Day } from '../../../src/sales-summary/sales-summary.rules';

// 2026-11-25 20:00 UTC is 2026-11-26 04:00 at +08:00: "today" is the 26th.
const NOW = new Date('2026-11-25T20:00:00Z');

describe('daily sales range', () => {
  it('defaults to the 14 days ending today (+08:00)', () => {
    const r = dayRange({}, NOW);
    if (!r.ok) throw new Error('refused');
    expect(r.days).toHaveLength(14);
    expect(r.days[13]).toBe('2026-11-26');
    expect(r.days[0]).toBe('2026-11-13');
    expect(r.from.toISOString()).toBe('2026-11-12T16:00:00.000Z');
    expect(r.to.toISOString()).toBe('2026-11-26T16:00:00.000Z');
  });

  it('never charts a future day', () => {
    const r = dayRange({ from: '2026-11-24', to: '2026-12-05' }, NOW);
    expect(r.ok && r.days).toEqual(['2026-11-24', '2026-11-25', '2026-11-26']);
    expect(dayRange({ from: '2026-11-27' }, NOW)).toEqual({ ok: false, path: '$.from', text: 'the first day is after today: no sales yet' });
  });

  it('refuses a reversed or too long range', () => {
    expect(dayRange({ from: '2026-11-20', to: '2026-11-10' }, NOW).ok).toBe(false);
    expect(dayRange({ from: '2024-01-01', to: '2026-11-20' }, NOW)).toMatchObject({ ok: false, text: 'at most 366 days at a time' });
  });

  it('fills days without sales with 0 and keeps the order', () => {
    expect(fillDays(['a', 'b'], [{ day: 'b', orders: 2, fen: 700 }])).toEqual([
      { day: 'a', orders: 0, fen: 0 },
      { day: 'b', orders: 2, fen: 700 },
    ]);
    expect(plus8Day(new Date('2026-11-25T16:00:00Z'))).toBe('2026-11-26');
  });
});
