import { ConfigError } from './config-error';

/**
 * Read replicas and the pooler (issue 38; docs/operations.md "Replicas and a pooler"). Read from the environment with
 * the rest of the configuration (loadConfig).
 */
export interface ReplicaConfig {
  /** DATABASE_READ_URL: streaming replicas (comma-separated) for the reads that may be a little stale; none by default. */
  readUrls: string[];
  /** DATABASE_READ_MAX_LAG_MS: a replica further behind the primary than this is skipped until it catches up. */
  maxLagMs: number;
  /** DATABASE_READ_PROBE_MS: how often each replica's replay position (and the primary's WAL position) is read. */
  probeMs: number;
  /**
   * DATABASE_LISTEN_URL: the connection that LISTENs for events, straight to the primary. LISTEN needs a session of
   * its own, which a pooler in transaction mode does not keep: set it when DATABASE_URL names PgBouncer.
   */
  listenUrl: string | null;
}

type Env = Record<string, string | undefined>;

function postgresUrl(name: string, v: string): string {
  let parsed: URL;
  try {
    parsed = new URL(v);
  } catch {
    throw new ConfigError(name, `"${redactedUrl(v)}" is not an absolute URL`);
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') throw new ConfigError(name, 'must use one of postgres:, postgresql:');
  return v;
}

function intIn(env: Env, name: string, def: number, min: number, max: number): number {
  const v = env[name]?.trim();
  if (!v) return def;
  if (!/^\d+$/.test(v)) throw new ConfigError(name, `must be an integer, got "${v}"`);
  const n = Number(v);
  if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

export function replicaConfigOf(env: Env, databaseUrl: string | null): ReplicaConfig {
  const raw = env.DATABASE_READ_URL?.trim() ?? '';
  const readUrls = raw ? raw.split(',').map((s) => s.trim()).filter(Boolean).map((u) => postgresUrl('DATABASE_READ_URL', u)) : [];
  // The embedded database has no replicas: a replica setting without a server is a mistake, not something to ignore.
  if (readUrls.length && !databaseUrl) throw new ConfigError('DATABASE_READ_URL', 'needs DATABASE_URL (the embedded database has no replicas)');
  const listen = env.DATABASE_LISTEN_URL?.trim() || null;
  if (listen && !databaseUrl) throw new ConfigError('DATABASE_LISTEN_URL', 'needs DATABASE_URL (the embedded database has no LISTEN)');
  return {
    readUrls,
    maxLagMs: intIn(env, 'DATABASE_READ_MAX_LAG_MS', 5000, 10, 3_600_000),
    probeMs: intIn(env, 'DATABASE_READ_PROBE_MS', 500, 20, 60_000),
    listenUrl: listen ? postgresUrl('DATABASE_LISTEN_URL', listen) : null,
  };
}

/** A database URL as logs, /readyz and /metrics show it: host, port and database, never the user or password. */
export function redactedUrl(v: string): string {
  try {
    const u = new URL(v);
    return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return '(unparsable URL)';
  }
}
