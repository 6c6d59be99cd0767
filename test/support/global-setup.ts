import 'reflect-metadata';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DataSource } from 'typeorm';
import { startEmbeddedPostgres } from '../../src/database/embedded-postgres';
import { dataSourceOptions, runMigrationsLocked } from '../../src/database/typeorm-options';
import { builtFromCurrentSources } from './compiled-service';
import { adminQuery, startDropper, urlFor } from './pg';

/**
 * Once per run: a template database with every migration applied, which each test file copies; and the same for the
 * embedded database, a migrated PGlite dump every `memory://` start loads instead of running initdb (test-app.ts).
 * The two are made at once (the server migrates its template while PGlite works in this process).
 */
export default async function globalSetup(): Promise<void> {
  const template = `vt_${process.pid}_${Date.now().toString(36)}_tpl`;
  const [, seed] = await Promise.all([migratedTemplate(template), migratedEmbeddedDump(template)]);
  process.env.TEST_PG_TEMPLATE = template;
  process.env.TEST_EMBEDDED_SEED = seed;
  // The per-file databases a test releases are dropped from here, off the tests' time (pg.ts `release`).
  const queue = path.join(__dirname, '..', '..', 'test-output', `${template}-drop`);
  fs.mkdirSync(queue, { recursive: true });
  process.env.TEST_PG_DROP_QUEUE = queue;
  (globalThis as { testPgDropper?: { stop(): Promise<void> } }).testPgDropper = startDropper(queue, template.replace(/_tpl$/, ''));
}

async function migratedTemplate(template: string): Promise<void> {
  await adminQuery(`CREATE DATABASE "${template}"`);
  const ds = new DataSource(dataSourceOptions(urlFor(template), { entities: [], poolMax: 2 }));
  await ds.initialize();
  await runMigrationsLocked(ds);
  await ds.destroy();
}

/**
 * The migrated embedded database as a dump. When dist/ is the build of the current sources (CI builds right before
 * the tests), it starts from a copy of the build's migrated data directory (dist/embedded-template, made by
 * scripts/make-embedded-template.js) instead of running initdb; the migrations run either way (none is left to run
 * on the build's copy).
 */
async function migratedEmbeddedDump(name: string): Promise<string> {
  const built = path.join(__dirname, '..', '..', 'dist', 'embedded-template');
  const copy = builtFromCurrentSources() && fs.existsSync(path.join(built, 'PG_VERSION')) ? fs.mkdtempSync(path.join(os.tmpdir(), 'vending-seed-')) : null;
  if (copy) fs.cpSync(built, copy, { recursive: true });
  const pg = await startEmbeddedPostgres(copy ?? 'memory://');
  try {
    const ds = new DataSource(dataSourceOptions(pg.url, { entities: [], embedded: true, poolMax: 1 }));
    await ds.initialize();
    await runMigrationsLocked(ds, { embedded: true });
    await ds.destroy();
    const file = path.join(__dirname, '..', '..', 'test-output', `${name}-embedded.tar`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, Buffer.from(await (await pg.dump()).arrayBuffer()));
    return file;
  } finally {
    await pg.close();
    if (copy) fs.rmSync(copy, { recursive: true, force: true });
  }
}
