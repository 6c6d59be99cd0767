#!/usr/bin/env node
// Issue 13, what bounds the events route: the CPU one request costs in each layer of the stack when the answer is
// already known. The same 16 KB JSON answer (50 events) is served, with the same bearer check, by
//   bare     node:http alone
//   express  Express 5 (the service's version), one route
//   nest     NestJS on Express, one controller, the service's answer path (okRendered + installRenderedJson)
//   nest+    the same plus what every service request has: the request log (pino), the UCP-Agent middleware, the
//            JSON body parser, the global pipes, the auth guard and the exception filter
// each in its own process, alternating, with autocannon; it prints req/s and CPU ms per request (from /proc).
// Usage: npm run build && node bench/framework-floor.js [--seconds 5] [--rounds 2] [--connections 32]
require('reflect-metadata');
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { SERVICE_NODE_FLAGS } = require('../scripts/node-flags');

const arg = (name, def) => (process.argv.includes(`--${name}`) ? process.argv[process.argv.indexOf(`--${name}`) + 1] : def);
const dist = process.env.BENCH_DIST ? path.resolve(process.env.BENCH_DIST) : path.join(__dirname, '..', 'dist');
const TOKEN = 'bench-token-0123456789abcdef0123';
const EVENTS = Array.from({ length: 50 }, (_, i) => ({
  id: `0b6c1f1e-7d7a-4c55-9a3e-${String(100000000000 + i)}`,
  occurred_at: '2026-11-23T10:00:00.000+08:00',
  kind: 'approval.decided',
  summary: `bench event ${i} for machine bm-0000`,
  reasoning: 'recorded by the bench loader so that the event log holds a realistic amount of text per entry',
  data: { approval: `ap_${i}`, status: 'approved', amount_fen: 1234 + i },
}));

async function serve(mode, port) {
  const page = JSON.stringify({ ucp: { version: '2026-08-25', status: 'success' }, events: EVENTS, messages: [] });
  if (mode === 'bare') {
    http
      .createServer((req, res) => {
        if (req.headers.authorization !== `Bearer ${TOKEN}`) return void res.writeHead(401).end();
        const buf = Buffer.from(page);
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': buf.length });
        res.end(buf);
      })
      .listen(port, '127.0.0.1');
    return;
  }
  if (mode === 'express') {
    const express = require('express');
    const app = express();
    app.set('etag', false); // the service sends list pages without an ETag too
    app.get('/ucp/v1/events', (req, res) => {
      if (req.headers.authorization !== `Bearer ${TOKEN}`) return void res.status(401).end();
      res.type('json').send(page);
    });
    app.listen(port, '127.0.0.1');
    return;
  }
  const { Controller, Get, Module, Query } = require('@nestjs/common');
  const { NestFactory } = require('@nestjs/core');
  const { JsonText, okRendered, installRenderedJson } = require(path.join(dist, 'src', 'common', 'rendered-json.js'));
  const eventsText = new JsonText(JSON.stringify(EVENTS));
  class EventsController {
    list() {
      return okRendered({ events: eventsText }, { capabilities: ['com.example.svc.events'] });
    }
  }
  Controller('ucp/v1/events')(EventsController);
  Get()(EventsController.prototype, 'list', Object.getOwnPropertyDescriptor(EventsController.prototype, 'list'));
  Query()(EventsController.prototype, 'list', 0);
  if (mode === 'nest') {
    class FloorModule {}
    Module({ controllers: [EventsController] })(FloorModule);
    const app = await NestFactory.create(FloorModule, { logger: false, bodyParser: false });
    installRenderedJson(app.getHttpAdapter().getInstance());
    app.useGlobalGuards({ canActivate: (ctx) => ctx.switchToHttp().getRequest().headers.authorization === `Bearer ${TOKEN}` });
    await app.listen(port, '127.0.0.1');
    return;
  }
  // nest+: the service's own request pipeline around the same controller.
  const { APP_FILTER, APP_GUARD } = require('@nestjs/core');
  const { loadConfig } = require(path.join(dist, 'src', 'config', 'app-config.js'));
  const { ConfigModule } = require(path.join(dist, 'src', 'config', 'config.module.js'));
  const { LoggingModule } = require(path.join(dist, 'src', 'common', 'logging', 'logging.module.js'));
  const { AuthGuard } = require(path.join(dist, 'src', 'common', 'auth', 'auth.guard.js'));
  const { UcpExceptionFilter } = require(path.join(dist, 'src', 'common', 'exception.filter.js'));
  const { configureApp } = require(path.join(dist, 'src', 'bootstrap.js'));
  const config = loadConfig({ SERVICE_ENV: 'staging', SERVICE_AUTH_TOKEN: TOKEN, SERVICE_SCHEDULER: 'off', SERVICE_RATE_LIMIT: 'off', PORT: String(port) });
  class FloorModule {}
  Module({
    imports: [ConfigModule.forRoot(config), LoggingModule.forRoot({ level: 'info', destination: fs.createWriteStream('/dev/null') })],
    controllers: [EventsController],
    providers: [{ provide: APP_GUARD, useClass: AuthGuard }, { provide: APP_FILTER, useClass: UcpExceptionFilter }],
  })(FloorModule);
  const app = await NestFactory.create(FloorModule, { logger: false, bodyParser: false });
  configureApp(app, config);
  await app.listen(port, '127.0.0.1');
}

function cpuSeconds(pid) {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

async function main() {
  const autocannon = require('autocannon');
  const seconds = Number(arg('seconds', '5'));
  const rounds = Number(arg('rounds', '2'));
  const connections = Number(arg('connections', '32'));
  const modes = ['bare', 'express', 'nest', 'nest+'];
  const base = 19600 + (process.pid % 300);
  const children = modes.map((m, i) => spawn(process.execPath, [...SERVICE_NODE_FLAGS, __filename, '--serve', m, '--port', String(base + i)], { stdio: ['ignore', 'ignore', 'inherit'] }));
  try {
    for (let i = 0; i < modes.length; i++) {
      for (let t = 0; ; t++) {
        const r = await fetch(`http://127.0.0.1:${base + i}/ucp/v1/events?limit=50`, { headers: { authorization: `Bearer ${TOKEN}` } }).catch(() => null);
        if (r && r.status === 200) break;
        if (t > 100) throw new Error(`${modes[i]} did not start`);
        await new Promise((res) => setTimeout(res, 200));
      }
    }
    const results = Object.fromEntries(modes.map((m) => [m, []]));
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 ? [...modes.keys()].reverse() : [...modes.keys()];
      for (const i of order) {
        const c0 = cpuSeconds(children[i].pid);
        const out = await new Promise((res, rej) =>
          autocannon({ url: `http://127.0.0.1:${base + i}/ucp/v1/events?limit=50`, connections, duration: seconds, headers: { authorization: `Bearer ${TOKEN}` } }, (e, x) => (e ? rej(e) : res(x))),
        );
        if (out.non2xx || out.errors) throw new Error(`${modes[i]}: non-2xx ${out.non2xx}, errors ${out.errors}`);
        const cpuMs = ((cpuSeconds(children[i].pid) - c0) * 1000) / out.requests.total;
        results[modes[i]].push({ rps: out.requests.average, cpuMs });
        console.log(`round ${r + 1} ${modes[i].padEnd(8)} ${out.requests.average.toFixed(0).padStart(6)} req/s  CPU ${cpuMs.toFixed(3)} ms/request`);
      }
    }
    const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const bareCpu = med(results.bare.map((x) => x.cpuMs));
    console.log('\nmedian CPU per request, and as a multiple of bare:');
    for (const m of modes) {
      const c = med(results[m].map((x) => x.cpuMs));
      console.log(`  ${m.padEnd(8)} ${c.toFixed(3)} ms  ${(c / bareCpu).toFixed(2)}x`);
    }
  } finally {
    for (const c of children) c.kill('SIGTERM');
  }
}

if (process.argv.includes('--serve')) {
  // Exit normally on a signal so that --cpu-prof writes its profile.
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(0));
  serve(arg('serve'), Number(arg('port'))).catch((e) => {
    console.error(e);
    process.exit(1);
  });
} else {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
