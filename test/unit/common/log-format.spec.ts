import * as path from 'node:path';

const { lineReader, prettyLine } = require(path.join(__dirname, '..', '..', '..', 'scripts', 'log-format.js')) as {
  prettyLine(o?: { colorize?: boolean }): (line: string) => string;
  lineReader(o: { pretty: boolean; write(s: string): void; onListening(url: string): void }): { push(c: string): void; end(): void };
};

/** Issue 28: `npm start`'s terminal format (scripts/log-format.js). */
describe('log lines on a terminal', () => {
  const T = 1795630112170;
  it('one readable line per entry: level, context, message; a request as method, path, status and time', () => {
    const f = prettyLine();
    expect(f(JSON.stringify({ level: 30, time: T, pid: 1, hostname: 'h', service: 'vending-commerce', context: 'main', msg: 'listening on http://localhost:8080' }))).toMatch(
      /^\[\d\d:\d\d:\d\d\] INFO: \[main\] listening on http:\/\/localhost:8080\n$/,
    );
    const req = f(JSON.stringify({ level: 30, time: T, pid: 1, req: { id: 4, method: 'GET', path: '/ucp/v1/namespaces' }, res: { statusCode: 200 }, responseTime: 3, msg: 'request completed' }));
    expect(req).toMatch(/INFO: GET \/ucp\/v1\/namespaces 200 3 ms\n$/);
    const warn = f(JSON.stringify({ level: 40, time: T, context: 'Sync', msg: 'partner slow', location: 'loc-1' }));
    expect(warn.trimEnd().split('\n')).toHaveLength(1);
    expect(warn).toMatch(/WARN: \[Sync\] partner slow .*loc-1/);
  });

  it('passes JSON through untouched when not on a terminal, and finds the URL once either way', () => {
    for (const pretty of [false, true]) {
      const out: string[] = [];
      const urls: string[] = [];
      const r = lineReader({ pretty, write: (s) => out.push(s), onListening: (u) => urls.push(u) });
      const line = JSON.stringify({ level: 30, time: T, context: 'main', msg: 'listening on http://localhost:8080 (staging)' });
      r.push(`${line}\n${line.slice(0, 10)}`);
      r.push(`${line.slice(10)}\n`);
      r.end();
      expect(urls).toEqual(['http://localhost:8080']);
      expect(out).toHaveLength(2);
      if (!pretty) expect(out[0]).toBe(`${line}\n`);
      else expect(out[0]).not.toMatch(/^\{/);
    }
  });
});
