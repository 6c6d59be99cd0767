import { loadConfig } from '../../../src/config/app-config';
import { ConfigError } from '../../../src/config/config-error';

const base = { SERVICE_AUTH_TOKEN: 'a-long-enough-operator-token' };

describe('an outside authorization server in the configuration (issue 36)', () => {
  it('needs both the issuer and its keys, https in production', () => {
    expect(loadConfig(base).externalOAuth).toBeNull();
    expect(loadConfig({ ...base, SERVICE_OAUTH_ISSUER: 'http://idp.test/realms/a', SERVICE_OAUTH_JWKS_URL: 'http://idp.test/jwks' }).externalOAuth).toEqual({ issuer: 'http://idp.test/realms/a', jwksUrl: 'http://idp.test/jwks' });
    expect(() => loadConfig({ ...base, SERVICE_OAUTH_ISSUER: 'http://idp.test/realms/a' })).toThrow(ConfigError);
    const prod = { ...base, SERVICE_ENV: 'production', SERVICE_PUBLIC_URL: 'https://v.example' };
    expect(() => loadConfig({ ...prod, SERVICE_OAUTH_ISSUER: 'http://idp.test/a', SERVICE_OAUTH_JWKS_URL: 'https://idp.test/jwks' })).toThrow(/SERVICE_OAUTH_ISSUER/);
    expect(loadConfig({ ...prod, SERVICE_OAUTH_ISSUER: 'https://idp.test/a', SERVICE_OAUTH_JWKS_URL: 'https://idp.test/jwks' }).externalOAuth?.issuer).toBe('https://idp.test/a');
  });
});
