import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The OAuth side of an MCP client as an assistant runs it, for the official SDK's `authProvider` (both client lines
 * take this shape): registered by dynamic registration, the tokens and PKCE verifier kept in memory, the authorization
 * URL kept for the test's browser to open.
 */
export class MemoryOAuthProvider {
  client: Record<string, unknown> | undefined;
  stored: { access_token: string; refresh_token?: string; token_type: string; scope?: string } | undefined;
  verifier = '';
  authorizationUrl: URL | null = null;

  constructor(
    readonly redirectUrl: string,
    readonly name: string,
  ) {}

  get clientMetadata() {
    return { client_name: this.name, redirect_uris: [this.redirectUrl], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: Record<string, unknown>) {
    this.client = info;
  }
  tokens() {
    return this.stored;
  }
  saveTokens(tokens: MemoryOAuthProvider['stored']) {
    this.stored = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** The assistant's redirect endpoint: a real HTTP server on the loopback that keeps each callback's query. */
export interface Callback {
  url: string;
  received: URLSearchParams[];
  close(): Promise<void>;
}

export async function startCallback(): Promise<Callback> {
  const received: URLSearchParams[] = [];
  const server: Server = createServer((req, res) => {
    received.push(new URL(req.url ?? '/', 'http://127.0.0.1').searchParams);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Connected</title><h1>You can close this window</h1>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/callback`, received, close: () => new Promise((r) => server.close(() => r())) };
}
