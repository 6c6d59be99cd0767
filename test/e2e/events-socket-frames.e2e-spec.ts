import { BOTH_DATABASES, startTestApp, TestApp } from '../support/test-app';
import { TestSocket, wsUrl } from './events-ws-client';

jest.setTimeout(60_000);

/** pino's level numbers. */
const WARN = 40;
const ERROR = 50;

/**
 * Issue 17: a client frame past the socket's 64 KiB limit closes that socket (1009) and is logged once, at warn,
 * without a stack trace (it is the client's mistake, not the service's error).
 */
describe.each(BOTH_DATABASES)('an oversized event socket frame (%s)', (db) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db });
  });
  afterAll(() => t.close());

  it('closes the socket with 1009 and logs one warn line without a stack', async () => {
    const s = await TestSocket.authed(wsUrl(t.url), { Authorization: `Bearer ${t.token}` });
    const before = t.logs.length;
    s.send(JSON.stringify({ type: 'ping', pad: 'x'.repeat(100 * 1024) }));
    expect((await s.waitClose()).code).toBe(1009);
    await new Promise((r) => setTimeout(r, 300));
    const lines = t.logs.slice(before).map((l) => JSON.parse(l) as { level: number; msg?: string; err?: unknown; stack?: unknown });
    const aboutIt = lines.filter((l) => /payload|frame/i.test(l.msg ?? '') || l.err !== undefined);
    expect(aboutIt).toHaveLength(1);
    expect(aboutIt[0].level).toBe(WARN);
    expect(aboutIt[0].msg).toMatch(/too large|64 KiB|max payload/i);
    expect(JSON.stringify(aboutIt[0])).not.toMatch(/\n\s+at |"stack"/);
    expect(lines.filter((l) => l.level >= ERROR)).toEqual([]);

    // The service keeps serving other sockets.
    const other = await TestSocket.authed(wsUrl(t.url), { Authorization: `Bearer ${t.token}` });
    other.send({ type: 'ping' });
    expect((await other.next('pong')).type).toBe('pong');
    other.close();
  });
});
