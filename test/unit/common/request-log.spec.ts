import express from 'express';
import { Writable } from 'node:stream';
import pino from 'pino';
import request from 'supertest';
import { requestLog } from '../../../src/common/logging/request-log';

function appWithLog() {
  const lines: Record<string, unknown>[] = [];
  const dest = new Writable({
    write(chunk: Buffer, _e, cb) {
      for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      cb();
    },
  });
  const app = express();
  app.use(requestLog(pino({ level: 'info', base: { pid: 7, service: 'svc' } }, dest)));
  app.get('/ucp/v1/things', (_req, res) => void res.json({ ok: true }));
  app.get('/boom', (_req, res) => void res.status(503).json({}));
  app.get('/healthz', (_req, res) => void res.send('ok'));
  return { app, lines };
}

describe('request log', () => {
  it('writes one line with the path (never the query string), the status, the time and the UCP-Agent', async () => {
    const { app, lines } = appWithLog();
    await request(app).get('/ucp/v1/things?token=abc').set('UCP-Agent', 'profile="https://a.example/p"').expect(200);
    await new Promise((r) => setImmediate(r));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 30, pid: 7, service: 'svc', msg: 'request completed', req: { method: 'GET', path: '/ucp/v1/things' }, res: { statusCode: 200 }, ucp_agent: 'profile="https://a.example/p"' });
    expect(Math.abs((lines[0].time as number) - Date.now())).toBeLessThan(5000);
    expect(typeof lines[0].responseTime).toBe('number');
    expect(JSON.stringify(lines)).not.toContain('abc');
  });

  it('escapes what it copies from the request (a quote or a newline in the path or the agent stays inside the line)', async () => {
    const { app, lines } = appWithLog();
    await request(app).get('/ucp/v1/things%22%0A?x=1').set('UCP-Agent', 'a"b\\c').expect(404);
    await new Promise((r) => setImmediate(r));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ req: { path: '/ucp/v1/things%22%0A' }, ucp_agent: 'a"b\\c' });
  });

  it('logs a 5xx at error level and leaves health probes out', async () => {
    const { app, lines } = appWithLog();
    await request(app).get('/boom').expect(503);
    await request(app).get('/healthz').expect(200);
    await new Promise((r) => setImmediate(r));
    expect(lines.map((l) => [l.msg, l.level])).toEqual([['request errored', 50]]);
  });
});
