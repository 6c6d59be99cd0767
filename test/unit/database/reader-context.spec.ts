import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { currentReader, readerContext, readerKey } from '../../../src/database/replicas/reader-context';

/** A response whose `end` records when it ran. */
function fakeResponse(log: string[]): ServerResponse {
  const res = new EventEmitter() as unknown as ServerResponse;
  res.end = (() => {
    log.push('end');
    return res;
  }) as ServerResponse['end'];
  return res;
}

const req = (method: string) => ({ method }) as IncomingMessage;

describe('reader context (issue 38: read-your-writes)', () => {
  it('keys a credential, a chat credential per chat, and nothing for a refused request', () => {
    expect(readerKey({ ok: true, credential: 'operator' })).toBe('operator');
    expect(readerKey({ ok: true, credential: 'chat', chatId: 'ops-room' })).toBe('chat:ops-room');
    expect(readerKey({ ok: false })).toBeNull();
  });

  it('a request that may write records its reader before its answer ends; a read records nothing', async () => {
    const log: string[] = [];
    const record = async (reader: string) => {
      await new Promise((r) => setTimeout(r, 20));
      log.push(`recorded ${reader}`);
    };
    const mw = readerContext(() => 'operator', record);
    for (const method of ['POST', 'GET']) {
      const res = fakeResponse(log);
      mw(req(method), res, () => {
        log.push(`${method} handled as ${currentReader()}`);
        res.end();
      });
    }
    await new Promise((r) => setTimeout(r, 50));
    expect(log).toEqual(['POST handled as operator', 'GET handled as operator', 'end', 'recorded operator', 'end']);
  });

  it('answers even when recording fails, and without replicas never holds the answer', async () => {
    const log: string[] = [];
    const failing = readerContext(() => 'operator', () => Promise.reject(new Error('primary away')));
    const res = fakeResponse(log);
    failing(req('PUT'), res, () => res.end());
    await new Promise((r) => setTimeout(r, 10));
    expect(log).toEqual(['end']);

    const off = readerContext(() => 'operator', null);
    const res2 = fakeResponse(log);
    off(req('POST'), res2, () => res2.end());
    expect(log).toEqual(['end', 'end']);
  });

  it('keeps the outer reader for an inner request, and has none outside a request', () => {
    expect(currentReader()).toBeNull();
    const outer = readerContext(() => 'approver', null);
    const inner = readerContext(() => 'operator', null);
    let seen: string | null = null;
    outer(req('GET'), fakeResponse([]), () => inner(req('GET'), fakeResponse([]), () => (seen = currentReader())));
    expect(seen).toBe('approver');
  });
});
