import { loadConfig } from '../../../src/config/app-config';
import { ConfigError } from '../../../src/config/config-error';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      env: 'staging',
      authToken: null,
      serviceName: 'vending',
      databaseUrl: null,
      dataDir: './data',
      httpVendors: [],
      killSwitchAtBoot: false,
      schedulerEnabled: true,
      maxBodyBytes: 1048576,
      partnerTimeoutMs: 10000,
      corsOrigins: [],
      adminChats: [],
    });
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['SERVICE_ENV', 'prod'],
    ['SERVICE_NAME', 'bad name!'],
    ['DATABASE_URL', 'mysql://x'],
    ['DATABASE_URL', 'not a url'],
    ['SERVICE_HTTP_VENDORS', '{"namespace":"a-machine"}'],
    ['SERVICE_HTTP_VENDORS', '[not json'],
    ['SERVICE_DEFAULT_MACHINE_NAMESPACE', 'acme'],
    ['SERVICE_DEFAULT_SUPPLY_NAMESPACE', 'acme-shop'],
    ['SERVICE_KILL_SWITCH', 'maybe'],
    ['SERVICE_ADMIN_CHATS', '[{"chat_id": 1}]'],
    ['SERVICE_SCHEDULER', 'sometimes'],
    ['SERVICE_MAX_BODY_BYTES', '-5'],
    ['SERVICE_PUBLIC_URL', 'ftp://x'],
    ['SERVICE_PARTNER_TIMEOUT_MS', '1.5'],
    ['SERVICE_CORS_ORIGINS', 'not-an-origin'],
  ])('a malformed %s stops the boot with an error naming it', (name, value) => {
    let err: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).variable).toBe(name);
    expect((err as Error).message.startsWith(`${name}:`)).toBe(true);
    expect((err as Error).message).not.toContain('\n');
  });

  it('a bad vendor entry inside a JSON array does not stop the boot (only that namespace is disabled)', () => {
    const c = loadConfig({ SERVICE_HTTP_VENDORS: '[{"namespace": 5}, {"namespace": "acme-machine"}]' });
    expect(c.httpVendors).toHaveLength(2);
  });

  it('unreadable guard rules do not stop the boot', () => {
    const c = loadConfig({ SERVICE_GUARDS_FILE: '/nonexistent/guards.json' }, () => {
      throw new Error('ENOENT');
    });
    expect(c.guardsJson).toBe('\u0000unreadable');
  });

  it('reads guard rules from SERVICE_GUARDS_FILE', () => {
    const c = loadConfig({ SERVICE_GUARDS_FILE: '/etc/guards.json' }, () => '{"killSwitch":false}');
    expect(c.guardsJson).toBe('{"killSwitch":false}');
  });

  it('parses on/off switches, CORS origins and admin chats', () => {
    const c = loadConfig({
      SERVICE_KILL_SWITCH: 'on',
      SERVICE_SCHEDULER: 'off',
      SERVICE_CORS_ORIGINS: 'https://admin.example.com, http://localhost:3000',
      SERVICE_ADMIN_CHATS: '[{"chat_id":"c1","admins":["u1"]}]',
      SERVICE_PUBLIC_URL: 'https://svc.example.com/',
    });
    expect(c.killSwitchAtBoot).toBe(true);
    expect(c.schedulerEnabled).toBe(false);
    expect(c.corsOrigins).toEqual(['https://admin.example.com', 'http://localhost:3000']);
    expect(c.adminChats).toEqual([{ chat_id: 'c1', admins: ['u1'] }]);
    expect(c.publicUrl).toBe('https://svc.example.com');
  });

  it('an empty SERVICE_AUTH_TOKEN counts as no token (fail closed)', () => {
    expect(loadConfig({ SERVICE_AUTH_TOKEN: '' }).authToken).toBeNull();
  });

  it('issue 28: the metrics token is its own (off by default, never an API token, 16+ characters in production); the pool idle time', () => {
    expect(loadConfig({}).metricsToken).toBeNull();
    expect(loadConfig({ SERVICE_METRICS_TOKEN: 'scrape-me-0123456789' }).metricsToken).toBe('scrape-me-0123456789');
    expect(() => loadConfig({ SERVICE_AUTH_TOKEN: 'same-token', SERVICE_METRICS_TOKEN: 'same-token' })).toThrow(/SERVICE_METRICS_TOKEN/);
    expect(() => loadConfig({ SERVICE_APPROVER_TOKEN: 'owner-token-x', SERVICE_METRICS_TOKEN: 'owner-token-x' })).toThrow(/SERVICE_METRICS_TOKEN/);
    const prod = { SERVICE_ENV: 'production', SERVICE_PUBLIC_URL: 'https://svc.example' };
    expect(() => loadConfig({ ...prod, SERVICE_METRICS_TOKEN: 'short' })).toThrow(ConfigError);
    expect(loadConfig({ ...prod, SERVICE_METRICS_TOKEN: 'a-long-enough-scrape-token' }).metricsToken).toBe('a-long-enough-scrape-token');
    expect(loadConfig({}).databasePoolIdleMs).toBe(10000);
    expect(loadConfig({ DATABASE_POOL_IDLE_MS: '150' }).databasePoolIdleMs).toBe(150);
    expect(() => loadConfig({ DATABASE_POOL_IDLE_MS: 'soon' })).toThrow(/DATABASE_POOL_IDLE_MS/);
  });
});
