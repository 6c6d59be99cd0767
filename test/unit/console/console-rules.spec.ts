/** Issue 19: the pure rules behind the console: freshness colours, fill level, the sales windows, the cookie. */
import { freshness } from '../../../console/src/format';
import { fillPercent, salesWindows } from '../../../src/fleet/fleet.rules';
import { cookieShouldBeSecure, signInCookie, signOutCookie } from '../../../src/console/session-cookie.rules';

const H = 3_600_000;

describe('console rules', () => {
  it('colours freshness by the age of the last sync: under 3 h, 3 to 8 h, over 8 h, never', () => {
    const now = Date.parse('2026-11-24T12:00:00Z');
    const ago = (ms: number) => new Date(now - ms).toISOString();
    expect(freshness(null, now)).toBe('never');
    expect(freshness(ago(0), now)).toBe('fresh');
    expect(freshness(ago(3 * H - 1000), now)).toBe('fresh');
    expect(freshness(ago(3 * H), now)).toBe('aging');
    expect(freshness(ago(8 * H), now)).toBe('aging');
    expect(freshness(ago(8 * H + 1000), now)).toBe('stale');
  });

  it('fills over the known capacity only, never above 100%, and null without any capacity', () => {
    expect(fillPercent(4, 20)).toBe(20);
    expect(fillPercent(1, 3)).toBe(33.3);
    expect(fillPercent(30, 20)).toBe(100);
    expect(fillPercent(5, 0)).toBeNull();
  });

  it('counts sales from +08:00 midnight, and 7 calendar days ending today', () => {
    // 2026-11-24 01:00 at +08:00 is 2026-11-23 17:00 UTC: "today" began at 2026-11-23 16:00 UTC.
    const { todayFrom, weekFrom } = salesWindows(new Date('2026-11-23T17:00:00Z'));
    expect(todayFrom.toISOString()).toBe('2026-11-23T16:00:00.000Z');
    expect(weekFrom.toISOString()).toBe('2026-11-17T16:00:00.000Z');
  });

  it('writes an HttpOnly, SameSite=Strict cookie, Secure over https, and expires it on sign-out', () => {
    expect(signInCookie('vending', 'a b;c', false)).toBe('vending_auth=a%20b%3Bc; HttpOnly; SameSite=Strict; Path=/; Max-Age=43200');
    expect(signInCookie('vending', 't', true)).toMatch(/; Secure$/);
    expect(signOutCookie('vending', false)).toMatch(/^vending_auth=; HttpOnly; SameSite=Strict; Path=\/; Max-Age=0; Expires=Thu, 01 Jan 1970/);
    expect(cookieShouldBeSecure(false, null)).toBe(false);
    expect(cookieShouldBeSecure(true, null)).toBe(true);
    expect(cookieShouldBeSecure(false, 'https://ops.example')).toBe(true);
    expect(cookieShouldBeSecure(false, 'http://ops.example')).toBe(false);
  });
});
