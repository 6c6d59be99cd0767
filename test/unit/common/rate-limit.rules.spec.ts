import fc from 'fast-check';
import { bucketOf, clientAddress, costOf } from '../../../src/common/rate-limit/rate-limit.rules';
import { trustedProxies } from '../../../src/config/trusted-proxies.rules';
import { loadConfig } from '../../../src/config/app-config';
import { ConfigError } from '../../../src/config/config-error';

describe('rate limit rules (issue 26)', () => {
  it('buckets: sign-in per address apart; a credential its own; a failed or absent credential per address', () => {
    expect(bucketOf({ signIn: true, address: '1.2.3.4', credential: null })).toEqual({ key: 'sign_in:1.2.3.4', limit: 'sign_in' });
    expect(bucketOf({ signIn: false, address: '1.2.3.4', credential: 'operator' })).toEqual({ key: 'credential:operator', limit: 'requests' });
    expect(bucketOf({ signIn: false, address: '1.2.3.4', credential: 'chat', chatId: 'ops' })).toEqual({ key: 'credential:chat:ops', limit: 'requests' });
    expect(bucketOf({ signIn: false, address: '1.2.3.4', credential: null })).toEqual({ key: 'address:1.2.3.4', limit: 'requests' });
  });

  it('cost: one per request, one per message of an MCP batch', () => {
    expect(costOf({ a: 1 }, true)).toBe(1);
    expect(costOf([1, 2, 3], true)).toBe(3);
    expect(costOf([1, 2, 3], false)).toBe(1);
    expect(costOf([], true)).toBe(1);
  });

  it('trusted proxies: addresses, CIDR ranges (IPv4, IPv6, IPv4-mapped) and loopback; nothing by default', () => {
    expect(trustedProxies([])('127.0.0.1')).toBe(false);
    const t = trustedProxies(['10.0.0.0/8', '2001:db8::/32', '192.0.2.7']);
    expect([t('10.1.2.3'), t('::ffff:10.1.2.3'), t('2001:db8::1'), t('192.0.2.7'), t('192.0.2.8'), t('127.0.0.1'), t('nonsense')]).toEqual([true, true, true, true, false, false, false]);
    const lo = trustedProxies(['loopback']);
    expect([lo('127.0.0.1'), lo('::1'), lo('::ffff:127.0.0.1'), lo('10.0.0.1')]).toEqual([true, true, true, false]);
    for (const bad of ['10.0.0.0/33', 'proxy.example', '10.0.0.1/8/1', '::1/129']) expect(() => trustedProxies([bad])).toThrow();
  });

  it('client address: X-Forwarded-For hops are believed only while a trusted proxy reported them', () => {
    const lo = trustedProxies(['loopback', '10.0.0.0/8']);
    expect(clientAddress('203.0.113.9', '198.51.100.1', lo)).toBe('203.0.113.9'); // an untrusted peer's header is ignored
    expect(clientAddress('127.0.0.1', '198.51.100.1', lo)).toBe('198.51.100.1');
    expect(clientAddress('127.0.0.1', '198.51.100.1, 10.0.0.5', lo)).toBe('198.51.100.1');
    expect(clientAddress('127.0.0.1', 'forged, 198.51.100.1', lo)).toBe('198.51.100.1'); // a client's own hop is not believed
    expect(clientAddress('127.0.0.1', undefined, lo)).toBe('127.0.0.1');
  });

  it('property: without trusted proxies the address is the peer, whatever X-Forwarded-For says', () => {
    const none = trustedProxies([]);
    fc.assert(fc.property(fc.ipV4(), fc.string(), (peer, xff) => clientAddress(peer, xff, none) === peer));
  });

  it('configuration: SERVICE_TRUSTED_PROXIES and SERVICE_RATE_LIMIT_SIGN_IN', () => {
    expect(loadConfig({}).trustedProxies).toEqual([]);
    expect(loadConfig({ SERVICE_TRUSTED_PROXIES: '10.0.0.0/8, loopback' }).trustedProxies).toEqual(['10.0.0.0/8', 'loopback']);
    expect(() => loadConfig({ SERVICE_TRUSTED_PROXIES: 'proxy.example' })).toThrow(ConfigError);
    expect(loadConfig({}).rateLimit).toEqual({ limit: 600, windowMs: 60_000, signInLimit: 10 });
    expect(loadConfig({ SERVICE_RATE_LIMIT_SIGN_IN: '3' }).rateLimit?.signInLimit).toBe(3);
    expect(() => loadConfig({ SERVICE_RATE_LIMIT_SIGN_IN: 'many' })).toThrow(ConfigError);
  });
});
