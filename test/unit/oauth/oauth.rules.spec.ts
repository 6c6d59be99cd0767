import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentScopeRefusal, isReadRequest, READ_POSTS } from '../../../src/common/auth/agent-scope.rules';
import { bearerChallenge, unauthorizedChallenge } from '../../../src/common/auth/bearer-challenge.rules';
import { bucketOf } from '../../../src/common/rate-limit/rate-limit.rules';
import { requesterOf, readRequester } from '../../../src/common/auth/requester.rules';
import { resolverRefusal, withdrawRefusal } from '../../../src/approvals/approval.rules';
import { operationsById, OpenApiDocumentLike } from '../../../src/mcp/tools/mcp-schemas.rules';
import { MCP_TOOLS } from '../../../src/mcp/tools/mcp-tools.table';
import { audienceMatches, grantableScopes, issuerOf, protectedResourceMetadata, redirectHost, resourceOf, scopeOfToken } from '../../../src/oauth/oauth.rules';

describe('the protected resource and its challenge (issue 36)', () => {
  it('names one resource and one issuer per base, with or without a trailing slash', () => {
    expect(resourceOf('https://v.example')).toBe('https://v.example/');
    expect(resourceOf('https://v.example/')).toBe('https://v.example/');
    expect(issuerOf('https://v.example/')).toBe('https://v.example/oauth');
    expect(protectedResourceMetadata('https://v.example', 'vending')).toMatchObject({ resource: 'https://v.example/', authorization_servers: ['https://v.example/oauth'], scopes_supported: ['read', 'operate'] });
  });

  it('challenges with the metadata URL, and says invalid_token only when a token was presented', () => {
    expect(unauthorizedChallenge('https://v.example', false)).toBe('Bearer realm="ucp", resource_metadata="https://v.example/.well-known/oauth-protected-resource", scope="read operate"');
    expect(unauthorizedChallenge('https://v.example', true)).toContain('error="invalid_token"');
    expect(bearerChallenge('https://v.example', { description: 'a "quoted" \\ text' })).toContain('error_description="a quoted  text"');
  });

  it('takes a token for this resource only, and reads its scope', () => {
    expect(audienceMatches('https://v.example/', 'https://v.example/')).toBe(true);
    expect(audienceMatches(['https://other.example/', 'https://v.example/'], 'https://v.example/')).toBe(true);
    expect(audienceMatches('https://v.example', 'https://v.example/')).toBe(false);
    expect(audienceMatches(undefined, 'https://v.example/')).toBe(false);
    expect(scopeOfToken('read operate')).toBe('operate');
    expect(scopeOfToken('read')).toBe('read');
    expect(scopeOfToken('openid offline_access')).toBeNull();
    expect(scopeOfToken(undefined)).toBeNull();
  });

  it('lets the person grant no more than the client asked (asking nothing asks for both)', () => {
    expect(grantableScopes('read')).toEqual(['read']);
    expect(grantableScopes('read operate offline_access')).toEqual(['read', 'operate']);
    expect(grantableScopes('operate')).toEqual(['read', 'operate']);
    expect(grantableScopes(undefined)).toEqual(['read', 'operate']);
    expect(redirectHost('http://127.0.0.1:9/cb')).toBe('127.0.0.1:9');
    expect(redirectHost('not a url')).toBeNull();
  });
});

describe('what a grant lets a request do', () => {
  it('read: every GET and the read POSTs, nothing else', () => {
    expect(isReadRequest('GET', '/ucp/v1/orders')).toBe(true);
    expect(isReadRequest('POST', '/ucp/v1/catalog/search')).toBe(true);
    expect(isReadRequest('POST', '/ucp/mcp')).toBe(true);
    expect(isReadRequest('POST', '/ucp/v1/events')).toBe(false);
    expect(agentScopeRefusal('read', 'PUT', '/ucp/v1/locations/X/prices', 'the tool update_prices')).toMatch(/^the tool update_prices changes something, and this agent's grant is read only/);
    expect(agentScopeRefusal('read', 'GET', '/ucp/v1/orders', 'GET /ucp/v1/orders')).toBeNull();
    expect(agentScopeRefusal('operate', 'PUT', '/ucp/v1/locations/X/prices', 'x')).toBeNull();
  });

  it('the read POSTs are exactly the read-only tools that are not a GET (and the MCP endpoint)', () => {
    const doc = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'docs', 'openapi.json'), 'utf8')) as OpenApiDocumentLike;
    const ops = operationsById(doc);
    const readPosts = MCP_TOOLS.filter((t) => t.readOnly)
      .map((t) => ops.get(t.operationId)!)
      .filter((o) => o.method.toUpperCase() !== 'GET')
      .map((o) => o.path);
    expect([...READ_POSTS].sort()).toEqual([...readPosts, '/ucp/mcp'].sort());
  });
});

describe('attribution to the agent\'s client', () => {
  it('counts an agent in a bucket of its own client', () => {
    expect(bucketOf({ signIn: false, address: '1.2.3.4', credential: 'agent', clientId: 'c1' })).toEqual({ key: 'credential:agent:c1', limit: 'requests' });
    expect(bucketOf({ signIn: false, address: '1.2.3.4', credential: 'operator' })).toEqual({ key: 'credential:operator', limit: 'requests' });
  });

  it('records the client as the requester, and reads it back', () => {
    const r = requesterOf({ path: '/ucp/mcp', via: 'bearer', credential: 'agent', agentProfile: null, clientId: 'c1' });
    expect(r).toEqual({ channel: 'mcp', credential: 'agent', client_id: 'c1' });
    expect(readRequester(JSON.parse(JSON.stringify(r)))).toEqual(r);
  });

  it('lets only the asking agent (or the approver) withdraw an agent\'s request, and never lets an agent resolve', () => {
    const asked = { credential: 'agent', client_id: 'c1' };
    expect(withdrawRefusal(asked, { credential: 'agent', agent: { clientId: 'c1' } })).toBeNull();
    expect(withdrawRefusal(asked, { credential: 'agent', agent: { clientId: 'c2' } })).toMatch(/only the agent that asked for it \(c1\)/);
    expect(withdrawRefusal(asked, { credential: 'operator' })).not.toBeNull();
    expect(withdrawRefusal(asked, { credential: 'approver' })).toBeNull();
    const policy = { adminChats: [{ chat_id: 'c', admins: ['s'] }], separation: false };
    expect(resolverRefusal({ channel: 'chat_tool', chat_id: 'c', sender_id: 's' }, { credential: 'agent', chatId: null }, policy)).toMatch(/never resolves approvals/);
    expect(resolverRefusal({ channel: 'chat_tool', chat_id: 'c', sender_id: 's' }, { credential: 'operator', chatId: null }, policy)).toBeNull();
  });
});
