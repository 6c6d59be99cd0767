/**
 * Issue 36, end to end: an assistant connects with the official MCP SDK's OAuth client (dynamic registration, PKCE,
 * resource indicator), a person consents on the console's real page in headless chromium (desktop and phone), and
 * the agent lists tools, reads, makes a guarded write with confirm, refreshes (the refresh token rotates), is revoked
 * and then gets 401 — for both protocol generations (SDK 1.x, protocol 2025-11-25; SDK 2.x pinned to 2026-07-28).
 * Screenshots: test-output/screenshots/oauth-*.png.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as Client2026, StreamableHTTPClientTransport as Transport2026 } from '@modelcontextprotocol/client';
import type { Browser } from 'playwright-core';
import { buildConsole } from '../support/console-build';
import { callTool } from '../support/mcp-client';
import { tokenRequest } from '../support/oauth-agent';
import { Callback, MemoryOAuthProvider, startCallback } from '../support/sdk-oauth';
import { startTestApp, TestApp, TEST_TOKEN } from '../support/test-app';
import { waitUntil } from '../support/wait-until';
import { expectAccessible, Kind, launchBrowser, screenshot, SignedInPage, signedInPages } from './browser-support';

jest.setTimeout(180_000);

type Generation = 'current' | '2026';
/** What an SDK client says when its token is refused and its refresh token is too (401, then `invalid_grant`). */
const REFUSED = /nauthorized|grant request is invalid/;
type Any = Record<string, any>;

/** A client of one generation with the provider; `connect` throws UnauthorizedError until the person consented. */
function clientOf(generation: Generation, t: TestApp, provider: MemoryOAuthProvider) {
  const url = new URL(`${t.url}/ucp/mcp`);
  if (generation === '2026') {
    const transport = new Transport2026(url, { authProvider: provider as never });
    const client = new Client2026({ name: 'assistant-2026', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    return { transport, client: client as unknown as Client, connect: () => client.connect(transport), finish: (q: URLSearchParams) => transport.finishAuth(q.get('code')!, q.get('iss') ?? undefined) };
  }
  const transport = new StreamableHTTPClientTransport(url, { authProvider: provider as never });
  const client = new Client({ name: 'assistant-current', version: '1.0.0' });
  return { transport, client, connect: () => client.connect(transport), finish: (q: URLSearchParams) => transport.finishAuth(q.get('code')!) };
}

describe('an assistant connects through OAuth with a person\'s consent', () => {
  let t: TestApp;
  let browser: Browser;
  let pages: Record<Kind, SignedInPage>;
  let callback: Callback;

  beforeAll(async () => {
    [t, browser, callback] = await Promise.all([
      startTestApp({ db: 'embedded', env: { SERVICE_STAGING_SEED: 'on', SERVICE_CONSOLE_DIR: buildConsole() } }),
      launchBrowser(),
      startCallback(),
    ]);
    await waitUntil(async () => (await t.get('/ucp/v1/orders?kind=sale&limit=1')).body.orders?.length > 0, { what: 'the seed sync', timeoutMs: 60_000, intervalMs: 200 });
    pages = await signedInPages(browser, t.url, TEST_TOKEN);
  }, 150_000);
  afterAll(async () => {
    await browser?.close();
    await callback?.close();
    await t?.close();
  });
  afterEach(() => {
    for (const p of Object.values(pages ?? {})) expect(p.errors.splice(0)).toEqual([]);
  });

  it.each([
    ['current', 'desktop'],
    ['2026', 'phone'],
  ] as const)('the %s SDK: registration, consent on the %s page, token, tools, read, guarded write, refresh, revocation, 401', async (generation, kind) => {
    const provider = new MemoryOAuthProvider(callback.url, `Assistant (${generation} SDK)`);
    const first = clientOf(generation, t, provider);
    await expect(first.connect()).rejects.toThrow(/nauthorized/);
    expect(provider.client?.client_id).toBeTruthy(); // registered dynamically (RFC 7591)
    const authUrl = provider.authorizationUrl!;
    expect(authUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authUrl.searchParams.get('resource')).toBe(`${t.url}/`);

    // The person: the consent page says who asks for what; they pick operate and connect.
    const { page } = pages[kind];
    const before = callback.received.length;
    await page.goto(authUrl.href);
    await page.getByRole('heading', { name: 'Connect an agent' }).waitFor();
    await page.getByText(`Assistant (${generation} SDK)`, { exact: false }).first().waitFor();
    await page.getByText('127.0.0.1', { exact: false }).first().waitFor();
    // What it asks for reads in words: OAuth's scope names are not for a person.
    await page.getByText('to read; to operate', { exact: false }).first().waitFor();
    expect(await page.locator('main').innerText()).not.toMatch(/offline_access|\boperate,/);
    await screenshot(page, `oauth-consent-${generation}-${kind}`);
    await expectAccessible(page, 'consent');
    await page.getByRole('radio', { name: /Operate:/ }).check();
    await page.getByRole('button', { name: 'Connect (operate)' }).click();
    await waitUntil(async () => callback.received.length > before, { what: 'the redirect back to the assistant' });
    const back = callback.received[before];
    expect(back.get('iss')).toBe(`${t.url}/oauth`);
    await first.finish(back);
    expect(provider.stored?.scope).toBe('read operate');

    const { client, connect } = clientOf(generation, t, provider);
    await connect();
    try {
      expect((await client.listTools()).tools.map((x) => x.name)).toContain('update_prices');
      const loc = ((await callTool(client, 'search_locations', {})).body.locations as Any[])[0].id as string;
      const found = await callTool(client, 'search_catalog', { catalog: { filters: { namespace: 'sim-machine', location: loc }, pagination: { limit: 1 } } });
      const variant = (found.body.products as Any[])[0].variants[0];
      const write = await callTool(client, 'update_prices', { meta: { 'idempotency-key': `oauth-${generation}` }, id: loc, prices: { confirm: true, prices: [{ item: { id: variant.id }, price: { amount: variant.price.amount + 1, currency: 'CNY' } }] } });
      expect(write).toMatchObject({ status: 200, isError: false });
      const changed = (await t.get('/ucp/v1/events?kind=price.changed').expect(200)).body.events[0];
      expect(changed.data.agent_client_id).toBe(provider.client!.client_id);

      // An access token that no longer works: the SDK refreshes (the refresh token rotates) and carries on.
      const oldRefresh = provider.stored!.refresh_token!;
      provider.stored = { ...provider.stored!, access_token: 'expired-access-token' };
      expect((await callTool(client, 'get_profile', {})).status).toBe(200);
      expect(provider.stored.refresh_token).not.toBe(oldRefresh);
      expect(provider.stored.access_token).not.toBe('expired-access-token');

      // The assistant signs out (RFC 7009): the grant ends; the next call is 401 and the SDK asks for a new consent.
      const revoked = await fetch(`${t.url}/oauth/token/revocation`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: provider.stored.refresh_token!, client_id: String(provider.client!.client_id) }),
      });
      expect(revoked.status).toBe(200);
      const raw = await fetch(`${t.url}/ucp/mcp`, { method: 'POST', headers: { authorization: `Bearer ${provider.stored.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
      expect(raw.status).toBe(401);
      expect(raw.headers.get('www-authenticate')).toContain(`resource_metadata="${t.url}/.well-known/oauth-protected-resource"`);
      // The SDK tries its refresh token, which the revocation ended with the grant: the agent must be connected again.
      await expect(client.listTools()).rejects.toThrow(REFUSED);
      expect((await tokenRequest(t.url, { grant_type: 'refresh_token', refresh_token: provider.stored.refresh_token!, client_id: String(provider.client!.client_id) })).body.error).toBe('invalid_grant');
    } finally {
      await client.close().catch(() => undefined);
    }
  });

  it('lists connected agents in the console and disconnects one at once', async () => {
    const provider = new MemoryOAuthProvider(callback.url, 'Kitchen tablet assistant');
    const first = clientOf('current', t, provider);
    await expect(first.connect()).rejects.toThrow(/nauthorized/);
    const { page } = pages.desktop;
    const before = callback.received.length;
    await page.goto(provider.authorizationUrl!.href);
    await page.getByRole('button', { name: 'Connect (read only)' }).click();
    await waitUntil(async () => callback.received.length > before, { what: 'the redirect back to the assistant' });
    await first.finish(callback.received[before]);
    const { client, connect } = clientOf('current', t, provider);
    await connect();
    expect((await callTool(client, 'get_profile', {})).status).toBe(200);

    for (const kind of ['desktop', 'phone'] as const) {
      const p = pages[kind].page;
      await p.goto(`${t.url}/console/#/agents`);
      await p.getByRole('heading', { name: 'Connected agents' }).waitFor();
      await p.getByText('Kitchen tablet assistant').first().waitFor();
      // A person reads words: no file paths, no scope names.
      expect(await p.locator('main').innerText()).not.toMatch(/\.md\b|docs\/|offline_access/);
      await screenshot(p, `oauth-agents-${kind}`);
      await expectAccessible(p, 'agents');
    }
    await page.getByRole('button', { name: 'Disconnect Kitchen tablet assistant…' }).click();
    await page.getByRole('button', { name: 'Yes, disconnect now' }).click();
    await page.getByText('No agent is connected.').waitFor();
    await expect(client.listTools()).rejects.toThrow(REFUSED);
    const raw = await fetch(`${t.url}/ucp/v1/namespaces`, { headers: { authorization: `Bearer ${provider.stored!.access_token}` } });
    expect(raw.status).toBe(401);
    await client.close().catch(() => undefined);
  });
});
