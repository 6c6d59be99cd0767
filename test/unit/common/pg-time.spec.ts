import fc from 'fast-check';
import { pgTimeToPlus8, toPlus8 } from '../../../src/common/time';

/** List pages read timestamps as the driver's text (issue 13): rendered exactly as the Date the driver would build. */
const time = fc.date({ min: new Date(Date.UTC(1990, 0, 1)), max: new Date(Date.UTC(2090, 0, 1)), noInvalidDate: true });

/** The driver's text for a timestamptz in a whole-hour session time zone, as PostgreSQL prints it. */
function pgText(d: Date, zoneHours: number, micros: number): string {
  const wall = new Date(d.getTime() + zoneHours * 3600_000).toISOString();
  const frac = `${wall.slice(20, 23)}${String(micros).padStart(3, '0')}`.replace(/0+$/, '');
  const zone = `${zoneHours < 0 ? '-' : '+'}${String(Math.abs(zoneHours)).padStart(2, '0')}`;
  return `${wall.slice(0, 10)} ${wall.slice(11, 19)}${frac ? `.${frac}` : ''}${zone}`;
}

describe('pgTimeToPlus8', () => {
  it('renders driver text like toPlus8 renders the Date the driver used to build (ms truncated), in any whole-hour zone', () => {
    fc.assert(
      fc.property(time, fc.integer({ min: -12, max: 14 }), fc.integer({ min: 0, max: 999 }), (d, zone, micros) => {
        expect(pgTimeToPlus8(pgText(d, zone, micros))).toBe(toPlus8(d));
      }),
      { numRuns: 2000 },
    );
  });

  it('takes zones with minutes, Dates and short fractions too', () => {
    expect(pgTimeToPlus8('2026-11-22 02:00:00+00')).toBe('2026-11-22T10:00:00.000+08:00');
    expect(pgTimeToPlus8('2026-11-22 02:00:00.5+00')).toBe('2026-11-22T10:00:00.500+08:00');
    expect(pgTimeToPlus8('2026-11-22 02:00:00.123456+00:00')).toBe('2026-11-22T10:00:00.123+08:00');
    expect(pgTimeToPlus8('2026-11-22 07:45:30.25+05:45')).toBe('2026-11-22T10:00:30.250+08:00');
    expect(pgTimeToPlus8('2026-12-31 20:00:00-04')).toBe('2027-01-01T08:00:00.000+08:00');
    expect(pgTimeToPlus8(new Date(Date.UTC(2026, 0, 1)))).toBe('2026-01-01T08:00:00.000+08:00');
  });
});
