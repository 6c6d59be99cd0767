import { bearerFrom, cookieFrom, presentedToken, tokenMatches } from '../../../src/common/auth/token';
import { ok, message } from '../../../src/common/envelope/envelope';
import { parseRfc3339, startOfDayPlus8, startOfMonthPlus8, toPlus8 } from '../../../src/common/time';
import { parseRegistration } from '../../../src/partners/registry/registration';

describe('token handling', () => {
  it('compares tokens exactly', () => {
    expect(tokenMatches('abc', 'abc')).toBe(true);
    expect(tokenMatches('abd', 'abc')).toBe(false);
    expect(tokenMatches('abcd', 'abc')).toBe(false);
    expect(tokenMatches('', 'abc')).toBe(false);
    expect(tokenMatches(null, 'abc')).toBe(false);
  });
  it('reads the bearer header, else the <service>_auth cookie', () => {
    expect(bearerFrom('Bearer xyz')).toBe('xyz');
    expect(bearerFrom('Basic xyz')).toBeNull();
    expect(cookieFrom('a=1; vending_auth=tok%20en; b=2', 'vending_auth')).toBe('tok en');
    expect(presentedToken({ cookie: 'shop_auth=c' }, 'shop')).toBe('c');
    expect(presentedToken({ authorization: 'Bearer h', cookie: 'shop_auth=c' }, 'shop')).toBe('h');
    expect(presentedToken({ cookie: 'vending_auth=c' }, 'shop')).toBeNull();
  });
});

describe('time', () => {
  it('renders +08:00', () => {
    expect(toPlus8(new Date('2026-11-22T16:30:00Z'))).toBe('2026-11-23T00:30:00.000+08:00');
    expect(toPlus8(0)).toBe('1970-01-01T08:00:00.000+08:00');
  });
  it('accepts any RFC 3339 offset and refuses other shapes', () => {
    expect(parseRfc3339('2026-11-22T08:00:00+08:00')?.toISOString()).toBe('2026-11-22T00:00:00.000Z');
    expect(parseRfc3339('2026-11-22T00:00:00Z')?.toISOString()).toBe('2026-11-22T00:00:00.000Z');
    expect(parseRfc3339('2026-11-22')).toBeNull();
    expect(parseRfc3339('yesterday')).toBeNull();
  });
  it('computes +08:00 calendar days and months', () => {
    const at = new Date('2026-11-30T17:00:00Z'); // 2026-12-01 01:00 in +08:00
    expect(startOfDayPlus8(at).toISOString()).toBe('2026-11-30T16:00:00.000Z');
    expect(startOfMonthPlus8(at).toISOString()).toBe('2026-11-30T16:00:00.000Z');
    expect(startOfMonthPlus8(new Date('2026-11-15T00:00:00Z')).toISOString()).toBe('2026-10-31T16:00:00.000Z');
  });
});

describe('envelope', () => {
  it('wraps success bodies with ucp and messages', () => {
    const b = ok({ a: 1 }, { capabilities: ['com.example.svc.events'], messages: [message('stale_data', 'warning', 'y')] });
    expect(b.ucp).toEqual({ version: '2026-08-25', status: 'success', capabilities: { 'com.example.svc.events': [{ version: '2026-09-10' }] } });
    expect(b.messages[0]).toMatchObject({ type: 'warning', code: 'stale_data', severity: 'warning', path: '$', content: 'y' });
  });
});

describe('vendor registration', () => {
  const good = { namespace: 'acme-machine', baseUrl: 'https://a.example/x/', token: 't', capabilities: ['inventory', 'ledger'] };
  it('accepts a well-formed entry', () => {
    const r = parseRegistration(good, 0);
    expect(r.ok && r.registration).toMatchObject({ vendor: 'acme', role: 'machine', baseUrl: 'https://a.example/x', status: 'live' });
  });
  it.each([
    [{ ...good, namespace: 'acme' }, 'namespace'],
    [{ ...good, baseUrl: 'ftp://a' }, 'http or https'],
    [{ ...good, token: '' }, 'token'],
    [{ ...good, capabilities: ['inventory'] }, 'ledger'],
    [{ ...good, capabilities: ['inventory', 'ledger', 'catalog'] }, 'unknown capabilities'],
    [{ ...good, status: 'beta' }, 'status'],
    ['nope', 'not an object'],
  ])('refuses a malformed entry with a reason (%#)', (raw, reason) => {
    const r = parseRegistration(raw, 3);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.reason).toContain(reason);
      expect(r.reason).toContain('entry 3');
      expect(r.reason).not.toContain('"t"');
    }
  });
});
