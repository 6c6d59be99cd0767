import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Embedded PostgreSQL (PGlite) served on a loopback port by pglite-socket, so TypeORM uses its
 * ordinary `postgres` driver and the same migrations as production. One instance only: the data
 * directory is locked against a second process (stack-notes: two processes could open it).
 */
export interface EmbeddedPostgres {
  url: string;
  /** The data directory as a tarball (PGlite's `dumpDataDir`), e.g. to seed `memory://` databases. */
  dump(): Promise<Blob>;
  close(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  /** `memory://` only: start from this dump (a file written from `dump()`) instead of an empty initdb. */
  memorySeed?: string | null;
}

export const EMBEDDED_MAX_CONNECTIONS = 4;
/**
 * The pool over the embedded server holds ONE connection: PGlite has one backend, and concurrent extended-protocol
 * exchanges from several sockets interleave on it ("unnamed prepared statement does not exist"). One connection
 * serialises every query, which is what the single backend does anyway.
 */
export const EMBEDDED_POOL_MAX = 1;

/**
 * Issue 13, a lighter embedded default. PGlite keeps PostgreSQL's shared buffers inside its WebAssembly memory;
 * 16 MB (PostgreSQL's default is 128 MB) is plenty for one operator's data and takes about 130 MB off the process.
 */
export const EMBEDDED_SETTINGS = ['-c', 'shared_buffers=16MB'];

/**
 * Issue 21: V8 flags the service process sets (main.ts) when it runs the embedded database, before PGlite's
 * WebAssembly is compiled. `--liftoff-only` keeps PostgreSQL on V8's baseline WebAssembly tier: the optimising tier's
 * code for it was about 35-60 MB of the process and competed for the cores during boot.
 * `--optimize-for-size` makes the JavaScript heap grow less between collections (the embedded default serves one
 * operator; memory matters more there than peak request rate). Measured with bench/embedded-boot.js: RSS after the
 * staging seed and 100 reads about 200 MB instead of 320-400 MB; those reads took about 10-20% longer.
 * The PostgreSQL deployment keeps V8's defaults (scripts/node-flags.js only). Not set in tests (they call createApp).
 */
export const EMBEDDED_V8_FLAGS = ['--liftoff-only', '--optimize-for-size'];

/** The V8 flags the service process sets at start: the embedded ones without DATABASE_URL, none with it. */
export function runtimeV8Flags(databaseUrl: string | null | undefined): string[] {
  return databaseUrl ? [] : EMBEDDED_V8_FLAGS;
}

/**
 * An empty, migrated data directory made at build time (scripts/make-embedded-template.js). A new SERVICE_DATA_DIR is
 * a copy of it: PGlite's first-boot initdb runs a second PostgreSQL instance in the same process, which doubled
 * the memory (850 MB) and most of the boot time; opening a copy costs what opening an existing directory does.
 */
export const EMBEDDED_TEMPLATE_DIR = path.join(__dirname, '..', '..', 'embedded-template');

export async function startEmbeddedPostgres(dataDir: string, opts: EmbeddedPostgresOptions = {}): Promise<EmbeddedPostgres> {
  // PGlite is ESM-only in parts; load it dynamically.
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const inMemory = dataDir === 'memory://' || dataDir.startsWith('memory://');
  let releaseLock: () => void = () => undefined;
  if (!inMemory) {
    fs.mkdirSync(dataDir, { recursive: true });
    releaseLock = lockDirectory(dataDir);
  }
  let db: InstanceType<typeof PGlite>;
  try {
    if (!inMemory) copyTemplateIfNew(path.resolve(dataDir));
    const seed = inMemory && opts.memorySeed ? new Blob([fs.readFileSync(opts.memorySeed)]) : undefined;
    db = await PGlite.create(inMemory ? undefined : path.resolve(dataDir), {
      startParams: [...PGlite.defaultStartParams, ...EMBEDDED_SETTINGS],
      ...(seed ? { loadDataDir: seed } : {}),
    });
  } catch (e) {
    releaseLock();
    throw e;
  }
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: EMBEDDED_MAX_CONNECTIONS });
  await server.start();
  const conn = server.getServerConn(); // "127.0.0.1:PORT"
  return {
    url: `postgres://postgres@${conn}/postgres`,
    dump: () => db.dumpDataDir('none'),
    async close() {
      await server.stop().catch(() => undefined);
      await db.close().catch(() => undefined);
      releaseLock();
    },
  };
}

/** Copies the build's empty data directory into a directory that holds no database yet (else PGlite runs initdb). */
function copyTemplateIfNew(dir: string): void {
  if (fs.existsSync(path.join(dir, 'PG_VERSION'))) return;
  if (!fs.existsSync(path.join(EMBEDDED_TEMPLATE_DIR, 'PG_VERSION'))) return;
  fs.cpSync(EMBEDDED_TEMPLATE_DIR, dir, { recursive: true });
}

function lockDirectory(dir: string): () => void {
  const lockPath = path.join(dir, 'service.lock');
  const tryCreate = (): boolean => {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      return true;
    } catch {
      return false;
    }
  };
  if (!tryCreate()) {
    const holder = Number(fs.readFileSync(lockPath, 'utf8'));
    if (holder && holder !== process.pid && isAlive(holder)) {
      throw new Error(`SERVICE_DATA_DIR: ${dir} is in use by process ${holder} (the embedded database serves one instance)`);
    }
    fs.rmSync(lockPath, { force: true }); // stale lock of a dead process
    if (!tryCreate()) throw new Error(`SERVICE_DATA_DIR: could not lock ${dir}`);
  }
  return () => fs.rmSync(lockPath, { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
