import 'reflect-metadata';
import { INestApplication } from '@nestjs/common';
import { Writable } from 'node:stream';
import request from 'supertest';
import { createApp } from '../../src/bootstrap';
import { AppConfig, loadConfig } from '../../src/config/app-config';
import { createTestDatabase } from './pg';

export const TEST_TOKEN = 'test-operator-token-5f2c9a';

export interface TestApp {
  app: INestApplication;
  config: AppConfig;
  /** http://127.0.0.1:PORT (the app really listens: sockets and partners can reach it). */
  url: string;
  token: string;
  /** Every log line the app wrote (pino JSON), for assertions such as "the token is never logged". */
  logs: string[];
  databaseUrl: string | null;
  /** supertest with the operator token set. */
  get(path: string): request.Test;
  post(path: string, body?: unknown): request.Test;
  put(path: string, body?: unknown): request.Test;
  del(path: string): request.Test;
  /** supertest without any token. */
  raw: ReturnType<typeof request>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** 'postgres' (default): a fresh database copied from the migrated template. 'embedded': PGlite in memory. */
  db?: 'postgres' | 'embedded';
  /** Reuse an existing database (e.g. two instances on one database). */
  databaseUrl?: string;
  env?: Record<string, string | undefined>;
}

export async function startTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  let dropDb: (() => Promise<void>) | null = null;
  let databaseUrl: string | null = opts.databaseUrl ?? null;
  if (!databaseUrl && (opts.db ?? 'postgres') === 'postgres') {
    const db = await createTestDatabase();
    databaseUrl = db.url;
    dropDb = db.drop;
  }
  const env: Record<string, string | undefined> = {
    SERVICE_ENV: 'staging',
    SERVICE_AUTH_TOKEN: TEST_TOKEN,
    SERVICE_SCHEDULER: 'off',
    SERVICE_DATA_DIR: 'memory://',
    SERVICE_GUARDS: JSON.stringify({
      killSwitch: false,
      budget: { perOrderFen: 100000, dailyFen: 300000, monthlyFen: 3000000 },
      priceCapPerItem: { maxMoveFen: 200, maxMovePercent: 25 },
      probationVendors: [],
      hardNoGo: { vendors: [], skus: [] },
    }),
    // Off unless a test turns it on: many tests send bursts with the one operator token.
    SERVICE_RATE_LIMIT: 'off',
    ...opts.env,
  };
  // Production needs an absolute public URL (links never come from the Host header); tests that check links set theirs.
  if (env.SERVICE_ENV === 'production' && env.SERVICE_PUBLIC_URL === undefined) env.SERVICE_PUBLIC_URL = 'http://vending.test';
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  const config = loadConfig(env);
  // A migrated dump made once per run (global-setup.ts): an embedded start loads it instead of running initdb.
  if (!databaseUrl && env.SERVICE_DATA_DIR?.startsWith('memory://')) config.embeddedMemorySeed = process.env.TEST_EMBEDDED_SEED ?? null;
  const logs: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, cb) {
      logs.push(chunk.toString());
      cb();
    },
  });
  const app = await createApp(config, { logDestination: destination, logLevel: 'debug' });
  await app.listen(0, '127.0.0.1');
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const token = config.authToken ?? '';
  const srv = app.getHttpServer();
  const auth = (t: request.Test) => t.set('Authorization', `Bearer ${token}`).set('User-Agent', 'vending-e2e-tests/1.0');
  return {
    app,
    config,
    url,
    token,
    logs,
    databaseUrl,
    get: (p) => auth(request(srv).get(p)),
    post: (p, body) => (body === undefined ? auth(request(srv).post(p)) : auth(request(srv).post(p)).send(body as object)),
    put: (p, body) => (body === undefined ? auth(request(srv).put(p)) : auth(request(srv).put(p)).send(body as object)),
    del: (p) => auth(request(srv).delete(p)),
    raw: request(srv),
    async close() {
      await app.close();
      if (dropDb) await dropDb().catch(() => undefined);
    },
  };
}

/** Runs the same suite against the real PostgreSQL server and the embedded database. */
export const BOTH_DATABASES: ('postgres' | 'embedded')[] = ['postgres', 'embedded'];
