import { ConfigError, loadConfig } from '../../../src/config/app-config';

/** Issue 17: the production boot's requirements, the approver credential, rate limit and server timeouts. */
const PROD = { SERVICE_ENV: 'production', SERVICE_AUTH_TOKEN: 'operator-token-0123456789', SERVICE_PUBLIC_URL: 'https://svc.example' };

function refusal(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  throw new Error('the configuration was accepted');
}

describe('loadConfig: trust from the outside (issue 17)', () => {
  it('production requires SERVICE_PUBLIC_URL (links never come from the Host header); staging keeps the fallback', () => {
    const { SERVICE_PUBLIC_URL: _omit, ...noUrl } = PROD;
    const e = refusal(noUrl);
    expect(e.variable).toBe('SERVICE_PUBLIC_URL');
    expect(e.message).not.toContain('\n');
    expect(loadConfig({ SERVICE_ENV: 'staging' }).publicUrl).toBeNull();
    expect(loadConfig(PROD).publicUrl).toBe('https://svc.example');
  });

  it('a SERVICE_AUTH_TOKEN under 16 characters stops a production boot, naming it (never its value)', () => {
    const e = refusal({ ...PROD, SERVICE_AUTH_TOKEN: 'short-token-15c' });
    expect(e.variable).toBe('SERVICE_AUTH_TOKEN');
    expect(e.message).not.toContain('short-token-15c');
    expect(loadConfig({ ...PROD, SERVICE_AUTH_TOKEN: 'exactly-16-chars' }).authToken).toBe('exactly-16-chars');
    expect(loadConfig({ SERVICE_AUTH_TOKEN: 'short' }).authToken).toBe('short'); // staging: the demo's choice
  });

  it('SERVICE_APPROVER_TOKEN: optional, at least 16 characters in production, never the operator token', () => {
    expect(loadConfig(PROD).approverToken).toBeNull();
    expect(loadConfig({ ...PROD, SERVICE_APPROVER_TOKEN: 'owner-token-0123456789' }).approverToken).toBe('owner-token-0123456789');
    expect(refusal({ ...PROD, SERVICE_APPROVER_TOKEN: 'owner-short' }).variable).toBe('SERVICE_APPROVER_TOKEN');
    expect(refusal({ ...PROD, SERVICE_APPROVER_TOKEN: PROD.SERVICE_AUTH_TOKEN }).variable).toBe('SERVICE_APPROVER_TOKEN');
  });

  it('rate limit: on by default (600 a minute per credential), off with "off", malformed values named', () => {
    expect(loadConfig({}).rateLimit).toEqual({ limit: 600, windowMs: 60_000 });
    expect(loadConfig({ SERVICE_RATE_LIMIT: 'off' }).rateLimit).toBeNull();
    expect(loadConfig({ SERVICE_RATE_LIMIT: '20', SERVICE_RATE_LIMIT_WINDOW_MS: '1000' }).rateLimit).toEqual({ limit: 20, windowMs: 1000 });
    expect(refusal({ SERVICE_RATE_LIMIT: 'lots' }).variable).toBe('SERVICE_RATE_LIMIT');
    expect(refusal({ SERVICE_RATE_LIMIT_WINDOW_MS: '5' }).variable).toBe('SERVICE_RATE_LIMIT_WINDOW_MS');
  });

  it('server timeouts: explicit defaults below Node\'s (headers 10 s, request 30 s, keep-alive 5 s), configurable', () => {
    expect(loadConfig({}).serverTimeouts).toEqual({ headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000 });
    expect(loadConfig({ SERVICE_HEADERS_TIMEOUT_MS: '2000', SERVICE_REQUEST_TIMEOUT_MS: '4000', SERVICE_KEEPALIVE_TIMEOUT_MS: '65000' }).serverTimeouts).toEqual({ headersMs: 2000, requestMs: 4000, keepAliveMs: 65_000 });
    expect(refusal({ SERVICE_HEADERS_TIMEOUT_MS: '40000' }).variable).toBe('SERVICE_HEADERS_TIMEOUT_MS');
    expect(refusal({ SERVICE_KEEPALIVE_TIMEOUT_MS: 'never' }).variable).toBe('SERVICE_KEEPALIVE_TIMEOUT_MS');
  });
});
