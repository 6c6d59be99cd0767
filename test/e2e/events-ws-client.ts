import WebSocket from 'ws';
import type { TestApp } from '../support/test-app';

/** A small test client of the event socket: queues every message and waits for them in order. */
export interface WsMessage {
  type: string;
  code?: string;
  content?: string;
  event?: { id: string; kind: string; source: 'service' | 'client'; occurred_at: string; summary: string; reasoning: string; location?: string };
  [k: string]: unknown;
}

export function wsUrl(httpUrl: string, suffix = ''): string {
  return `${httpUrl.replace(/^http/, 'ws')}/ucp/v1/events/ws${suffix}`;
}

export class TestSocket {
  private readonly queue: WsMessage[] = [];
  private waiter: (() => void) | null = null;
  closed: { code: number; reason: string } | null = null;
  private readonly closedPromise: Promise<{ code: number; reason: string }>;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.queue.push(JSON.parse(data.toString()) as WsMessage);
      this.waiter?.();
    });
    this.closedPromise = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        this.closed = { code, reason: reason.toString() };
        this.waiter?.();
        resolve(this.closed);
      });
    });
    ws.on('error', () => undefined);
  }

  static open(url: string, headers: Record<string, string> = {}): Promise<TestSocket> {
    const ws = new WebSocket(url, { headers });
    const s = new TestSocket(ws);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(s));
      ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: HTTP ${res.statusCode}`)));
      ws.once('error', reject);
    });
  }

  /** Opens and waits for `authenticated` (header or cookie auth). */
  static async authed(url: string, headers: Record<string, string>): Promise<TestSocket> {
    const s = await TestSocket.open(url, headers);
    expect((await s.next()).type).toBe('authenticated');
    return s;
  }

  send(body: unknown): void {
    this.ws.send(typeof body === 'string' ? body : JSON.stringify(body));
  }

  /** The next message (optionally the next one of a type); fails after `timeoutMs` or when the socket closes. */
  async next(type?: string, timeoutMs = 5000): Promise<WsMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const i = type ? this.queue.findIndex((m) => m.type === type) : this.queue.length ? 0 : -1;
      if (i >= 0) return this.queue.splice(i, 1)[0];
      if (this.closed) throw new Error(`socket closed (${this.closed.code}) while waiting for ${type ?? 'a message'}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${type ?? 'message'} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiter = () => {
          clearTimeout(t);
          resolve();
        };
      });
      this.waiter = null;
    }
  }

  /** The next `n` events, in the order received. */
  async events(n: number, timeoutMs = 10_000): Promise<NonNullable<WsMessage['event']>[]> {
    const out: NonNullable<WsMessage['event']>[] = [];
    const deadline = Date.now() + timeoutMs;
    while (out.length < n) out.push((await this.next('event', Math.max(1, deadline - Date.now()))).event!);
    return out;
  }

  waitClose(timeoutMs = 8000): Promise<{ code: number; reason: string }> {
    return Promise.race([
      this.closedPromise,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`not closed within ${timeoutMs} ms`)), timeoutMs).unref()),
    ]);
  }

  pending(): WsMessage[] {
    return [...this.queue];
  }

  close(): void {
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) this.ws.terminate();
  }
}

/**
 * Waits until every event stored so far (the boot's own, such as guard.changed, or an earlier test's) has been fanned
 * out by each of the given instances, so that a socket opened afterwards sees only the test's events: one event
 * posted on the first instance and seen on a socket of each (delivery is in `seq` order, so all before it are out).
 */
export async function drainFanOut(...apps: TestApp[]): Promise<void> {
  const sockets = await Promise.all(apps.map((t) => TestSocket.authed(wsUrl(t.url), { Authorization: `Bearer ${t.token}` })));
  try {
    const marker = (await apps[0].post('/ucp/v1/events', { kind: 'test.drain', summary: 'drain', reasoning: 'test setup' }).expect(201)).body as { id: string };
    for (const s of sockets) while ((await s.next('event')).event!.id !== marker.id);
  } finally {
    sockets.forEach((s) => s.close());
  }
}
