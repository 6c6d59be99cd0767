import { loadConfig } from '../../../src/config/app-config';
import { ConfigError } from '../../../src/config/config-error';
import { redactedUrl } from '../../../src/config/database-replicas.config';

const PRIMARY = 'postgres://svc:secret@db-primary:5432/vending';

describe('replica settings (issue 38)', () => {
  it('has no replicas by default, and documented defaults', () => {
    expect(loadConfig({ DATABASE_URL: PRIMARY }).replicas).toEqual({ readUrls: [], maxLagMs: 5000, probeMs: 500, listenUrl: null });
  });

  it('reads comma-separated replicas, the lag bound, the probe period and the listening URL', () => {
    const c = loadConfig({
      DATABASE_URL: PRIMARY,
      DATABASE_READ_URL: ' postgres://r@replica-1:5432/vending , postgresql://r@replica-2/vending ,',
      DATABASE_READ_MAX_LAG_MS: '1500',
      DATABASE_READ_PROBE_MS: '100',
      DATABASE_LISTEN_URL: 'postgres://svc@db-primary:5432/vending',
    });
    expect(c.replicas).toEqual({
      readUrls: ['postgres://r@replica-1:5432/vending', 'postgresql://r@replica-2/vending'],
      maxLagMs: 1500,
      probeMs: 100,
      listenUrl: 'postgres://svc@db-primary:5432/vending',
    });
  });

  it('refuses replicas and a listening URL on the embedded database, with one line naming the variable', () => {
    expect(() => loadConfig({ DATABASE_READ_URL: 'postgres://r@replica-1/vending' })).toThrow(
      new ConfigError('DATABASE_READ_URL', 'needs DATABASE_URL (the embedded database has no replicas)'),
    );
    expect(() => loadConfig({ DATABASE_LISTEN_URL: 'postgres://r@primary/vending' })).toThrow(ConfigError);
  });

  it.each([
    ['DATABASE_READ_URL', 'mysql://r@replica/vending'],
    ['DATABASE_READ_URL', 'postgres://r@replica/vending,not a url'],
    ['DATABASE_READ_MAX_LAG_MS', 'soon'],
    ['DATABASE_READ_MAX_LAG_MS', '5'],
    ['DATABASE_READ_PROBE_MS', '0'],
    ['DATABASE_LISTEN_URL', 'http://primary'],
  ])('refuses %s=%s', (name, value) => {
    expect(() => loadConfig({ DATABASE_URL: PRIMARY, [name]: value })).toThrow(ConfigError);
  });

  it('never shows a password in an error or a status', () => {
    let message = '';
    try {
      loadConfig({ DATABASE_URL: PRIMARY, DATABASE_READ_URL: 'mysql://u:hunter2@replica/vending' });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain('DATABASE_READ_URL');
    expect(message).not.toContain('hunter2');
    expect(redactedUrl('postgres://u:hunter2@replica-1:6432/vending')).toBe('replica-1:6432/vending');
    expect(redactedUrl('postgres://u:hunter2@replica-1/vending')).toBe('replica-1:5432/vending');
  });
});
