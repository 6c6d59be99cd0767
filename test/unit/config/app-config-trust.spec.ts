import { loadConfig } from '../../../src/config/app-config';
import { ConfigError } from '../../../src/config/config-error';

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
  });

  it('staging refuses a token under 16 characters too (issue 26), naming the variable only', () => {
    for (const name of ['SERVICE_AUTH_TOKEN', 'SERVICE_APPROVER_TOKEN']) {
      const e = refusal({ SERVICE_ENV: 'staging', SERVICE_AUTH_TOKEN: 'operator-token-0123456789', [name]: 'short-token-15c' });
      expect(e.variable).toBe(name);
      expect(e.message).not.toContain('short-token-15c');
    }
    expect(loadConfig({ SERVICE_AUTH_TOKEN: 'exactly-16-chars' }).authToken).toBe('exactly-16-chars');
  });

  it('SERVICE_CHAT_TOKENS: one token per registered admin chat, 16+ characters, distinct from every other credential (issue 26)', () => {
    const chats = JSON.stringify([{ chat_id: 'ops', admins: ['boss'] }, { chat_id: 'night', admins: ['amy'] }]);
    const base = { ...PROD, SERVICE_APPROVER_TOKEN: 'owner-token-0123456789', SERVICE_ADMIN_CHATS: chats };
    const c = loadConfig({ ...base, SERVICE_CHAT_TOKENS: JSON.stringify({ ops: 'chat-ops-token-0123456', night: 'chat-night-token-01234' }) });
    expect(c.chatTokens).toEqual([{ chat_id: 'ops', token: 'chat-ops-token-0123456' }, { chat_id: 'night', token: 'chat-night-token-01234' }]);
    expect(loadConfig(base).chatTokens).toEqual([]);
    for (const bad of [
      '{"ops": "short"}',
      '{"elsewhere": "chat-else-token-0123456"}',
      '["chat-ops-token-0123456"]',
      '{"ops": "chat-same-token-0123456", "night": "chat-same-token-0123456"}',
      `{"ops": "${PROD.SERVICE_AUTH_TOKEN}"}`,
      '{"ops": "owner-token-0123456789"}',
      'not json',
    ]) {
      const e = refusal({ ...base, SERVICE_CHAT_TOKENS: bad });
      expect(e.variable).toBe('SERVICE_CHAT_TOKENS');
      expect(e.message).not.toMatch(/token-0123/);
    }
  });

  it('SERVICE_APPROVER_TOKEN: optional, at least 16 characters, never the operator token', () => {
    expect(loadConfig(PROD).approverToken).toBeNull();
    expect(loadConfig({ ...PROD, SERVICE_APPROVER_TOKEN: 'owner-token-0123456789' }).approverToken).toBe('owner-token-0123456789');
    expect(refusal({ ...PROD, SERVICE_APPROVER_TOKEN: 'owner-short' }).variable).toBe('SERVICE_APPROVER_TOKEN');
    expect(refusal({ ...PROD, SERVICE_APPROVER_TOKEN: PROD.SERVICE_AUTH_TOKEN }).variable).toBe('SERVICE_APPROVER_TOKEN');
  });

  it('rate limit: on by default (600 a minute per credential), off with "off", malformed values named', () => {
    expect(loadConfig({}).rateLimit).toEqual({ limit: 600, windowMs: 60_000, signInLimit: 10 });
    expect(loadConfig({ SERVICE_RATE_LIMIT: 'off' }).rateLimit).toBeNull();
    expect(loadConfig({ SERVICE_RATE_LIMIT: '20', SERVICE_RATE_LIMIT_WINDOW_MS: '1000' }).rateLimit).toEqual({ limit: 20, windowMs: 1000, signInLimit: 10 });
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
