import { loadConfig } from '../../../src/config/app-config';
import { ConfigError } from '../../../src/config/config-error';

/** Issue 21: the event pages cache is on unless turned off; a malformed value is named. */
describe('loadConfig: SERVICE_EVENT_PAGE_CACHE', () => {
  it('on by default, off with "off", anything else refused by name', () => {
    expect(loadConfig({}).eventPageCache).toBe(true);
    expect(loadConfig({ SERVICE_EVENT_PAGE_CACHE: 'off' }).eventPageCache).toBe(false);
    expect(loadConfig({ SERVICE_EVENT_PAGE_CACHE: 'on' }).eventPageCache).toBe(true);
    let err: unknown = null;
    try {
      loadConfig({ SERVICE_EVENT_PAGE_CACHE: 'sometimes' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).variable).toBe('SERVICE_EVENT_PAGE_CACHE');
  });
});
