import { loadConfig } from '../../../src/config/app-config';
import { ConfigError } from '../../../src/config/config-error';

/** The replenishment settings (issue 25): defaults, and a bad value stops the boot naming the setting. */
describe('replenishment settings', () => {
  it('defaults: review every 7 days, z 1.65, a stated lead time taken as given', () => {
    const c = loadConfig({});
    expect({ r: c.reviewPeriodDays, z: c.serviceLevelZ, s: c.statedLeadTimeSigmaDays }).toEqual({ r: 7, z: 1.65, s: 0 });
  });

  it('reads the stated spread and z as decimals', () => {
    const c = loadConfig({ SERVICE_STATED_LEAD_TIME_SIGMA_DAYS: '1.5', SERVICE_LEVEL_Z: '2' });
    expect({ z: c.serviceLevelZ, s: c.statedLeadTimeSigmaDays }).toEqual({ z: 2, s: 1.5 });
  });

  it.each([
    ['SERVICE_STATED_LEAD_TIME_SIGMA_DAYS', '-1'],
    ['SERVICE_STATED_LEAD_TIME_SIGMA_DAYS', '11'],
    ['SERVICE_STATED_LEAD_TIME_SIGMA_DAYS', 'one'],
    ['SERVICE_LEVEL_Z', '5'],
    ['SERVICE_REVIEW_PERIOD_DAYS', '0'],
  ])('%s=%s is refused', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });
});
