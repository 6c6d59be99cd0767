import { AdjustableClock, clockOf, SystemClock } from '../../../src/common/clock';
import { loadConfig } from '../../../src/config/app-config';
import { ConfigError } from '../../../src/config/config-error';

/** Issue 25: the service clock; only a staging service may move it, and only forward. */
describe('service clock', () => {
  it('the system clock is the machine clock', () => {
    const before = Date.now();
    const t = new SystemClock().nowMs();
    expect(t).toBeGreaterThanOrEqual(before);
    expect(t).toBeLessThanOrEqual(Date.now());
  });

  it('an adjustable clock moves forward by whole milliseconds, never back', () => {
    const c = new AdjustableClock();
    c.advance(3 * 86_400_000);
    expect(c.offset).toBe(3 * 86_400_000);
    expect(c.nowMs() - Date.now()).toBeGreaterThan(3 * 86_400_000 - 1000);
    expect(() => c.advance(-1)).toThrow(RangeError);
    expect(() => c.advance(1.5)).toThrow(RangeError);
    expect(c.offset).toBe(3 * 86_400_000);
    expect(clockOf(false)).toBeInstanceOf(SystemClock);
    expect(clockOf(true)).toBeInstanceOf(AdjustableClock);
  });

  it('SERVICE_CLOCK: system by default, adjustable in staging, refused in production', () => {
    const staging = { SERVICE_ENV: 'staging', SERVICE_AUTH_TOKEN: 'x'.repeat(16) };
    expect(loadConfig(staging).adjustableClock).toBe(false);
    expect(loadConfig({ ...staging, SERVICE_CLOCK: 'adjustable' }).adjustableClock).toBe(true);
    expect(() => loadConfig({ ...staging, SERVICE_CLOCK: 'fast' })).toThrow(ConfigError);
    const production = { SERVICE_ENV: 'production', SERVICE_AUTH_TOKEN: 'x'.repeat(20), SERVICE_PUBLIC_URL: 'https://v.example' };
    expect(loadConfig(production).adjustableClock).toBe(false);
    expect(() => loadConfig({ ...production, SERVICE_CLOCK: 'adjustable' })).toThrow(/SERVICE_CLOCK: adjustable is for staging/);
  });
});
