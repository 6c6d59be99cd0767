import { readFileSync } from 'node:fs';
import { ConfigError } from './config-error';
import { trustedProxies } from './trusted-proxies.rules';
import { replicaConfigOf, ReplicaConfig } from './database-replicas.config';
import { externalOAuthOf, ExternalOAuthConfig } from './external-oauth.config';

/**
 * Typed configuration read once from the environment (docs/contract/).
 * A malformed value throws a ConfigError naming the variable; main.ts prints that one line and exits.
 */
export type ServiceEnv = 'production' | 'staging';

export interface AppConfig {
  port: number;
  host: string;
  env: ServiceEnv;
  authToken: string | null;
  /** The owner credential (SERVICE_APPROVER_TOKEN): when set, only it resolves dashboard approvals, releases the kill switch and replaces guard rules. */
  approverToken: string | null;
  serviceName: string;
  databaseUrl: string | null;
  /** Read replicas, their lag bound and the listening connection (issue 38, database-replicas.config.ts). */
  replicas: ReplicaConfig;
  dataDir: string;
  /**
   * A PGlite data dump (a `dumpDataDir` tarball) that a `memory://` database starts from instead of an empty initdb.
   * Not read from the environment: the test harness sets it to one migrated dump per run (initdb took ~2.5 s a start).
   */
  embeddedMemorySeed: string | null;
  /** Raw SERVICE_HTTP_VENDORS entries; each is validated by the partner registry (a bad one disables only its namespace). */
  httpVendors: unknown[];
  defaultMachineNamespace: string | null;
  defaultSupplyNamespace: string | null;
  /** Raw guard rules JSON text (SERVICE_GUARDS or the file's content); parsed by the guard layer. */
  guardsJson: string | null;
  killSwitchAtBoot: boolean;
  adminChats: { chat_id: string; admins: string[] }[];
  /**
   * The chat integration credential of each registered admin chat (SERVICE_CHAT_TOKENS, chat_id → token), held by the
   * chat bot that relays the admins' words (issue 26). With SERVICE_APPROVER_TOKEN set, a chat_tool resolution needs it.
   */
  chatTokens: { chat_id: string; token: string }[];
  schedulerEnabled: boolean;
  maxBodyBytes: number;
  publicUrl: string | null;
  /** An outside authorization server for agents instead of the built-in one (issue 36, external-oauth.config.ts). */
  externalOAuth: ExternalOAuthConfig | null;
  partnerTimeoutMs: number;
  corsOrigins: string[];
  /**
   * Requests per window per credential (per client address without one, failed authentication included), and sign-in
   * attempts per window per client address; null = no rate limit. Shared by the instances on one database.
   */
  rateLimit: { limit: number; windowMs: number; signInLimit: number } | null;
  /** Peers whose X-Forwarded-For is believed (SERVICE_TRUSTED_PROXIES: IPs, CIDR ranges or `loopback`); none by default. */
  trustedProxies: string[];
  /** Explicit HTTP server timeouts instead of Node's defaults (headers 60 s, request 300 s). */
  serverTimeouts: { headersMs: number; requestMs: number; keepAliveMs: number };
  /** Staging only: register the simulated machines and sync them at boot when the roster is empty (`npm start` sets it). */
  stagingSeed: boolean;
  /** The built operator console served under /console/ (issue 19); null: the build's own dist/console. */
  consoleDir: string | null;
  /** Reuse rendered GET /events pages until an event commits (issue 21; SERVICE_EVENT_PAGE_CACHE, default on). */
  eventPageCache: boolean;
  /** How long an idle pool connection is kept before it is closed (DATABASE_POOL_IDLE_MS; pg's default, 10 s). */
  databasePoolIdleMs: number;
  /** The bearer token of GET /metrics (SERVICE_METRICS_TOKEN); null: metrics are off (404). */
  metricsToken: string | null;
  /** SERVICE_CLOCK=adjustable (staging only, issue 25): the service clock moves forward through POST /admin/clock. */
  adjustableClock: boolean;
  /** Days between replenishment reviews (SERVICE_REVIEW_PERIOD_DAYS, default 7): how often the operator runs plans. */
  reviewPeriodDays: number;
  /** Safety factor z of the replenishment policy (SERVICE_LEVEL_Z, default 1.65: a 95% cycle service level). */
  serviceLevelZ: number;
  /**
   * Spread σ_L (days) of the stated lead time, used until deliveries are measured (SERVICE_STATED_LEAD_TIME_SIGMA_DAYS,
   * default 0: a stated lead time is taken as given; the 90-day replay states 1 day for its 1-5-day suppliers).
   */
  statedLeadTimeSigmaDays: number;
  /** The route day: stops the drivers make a day (SERVICE_ROUTE_STOPS_PER_DAY, 9) and a stop's cost (SERVICE_ROUTE_STOP_COST_FEN, 5000). */
  route: { stopsPerDay: number; stopCostFen: number };
}

/**
 * Shorter tokens stop a boot, production and staging alike (issue 26): they are guessable, and a guessable token is
 * the whole API. The demo token `npm start` prints is longer.
 */
export const MIN_TOKEN_LENGTH = 16;

type Env = Record<string, string | undefined>;

function str(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

function int(env: Env, name: string, def: number, min: number, max: number): number {
  const v = str(env, name);
  if (v === undefined) return def;
  if (!/^\d+$/.test(v)) throw new ConfigError(name, `must be an integer, got "${v}"`);
  const n = Number(v);
  if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

/** A decimal number in range (digits with an optional fraction: `1.65`). */
function decimal(env: Env, name: string, def: number, min: number, max: number): number {
  const v = str(env, name);
  if (v === undefined) return def;
  if (!/^\d+(\.\d+)?$/.test(v)) throw new ConfigError(name, `must be a decimal number, got "${v}"`);
  const n = Number(v);
  if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

/** `off` (or 0) disables; otherwise an integer in range. */
function offOrInt(env: Env, name: string, def: number, min: number, max: number): number | null {
  const v = str(env, name);
  if (v !== undefined && ['off', '0'].includes(v.toLowerCase())) return null;
  return int(env, name, def, min, max);
}

function onOff(env: Env, name: string, def: boolean): boolean {
  const v = str(env, name);
  if (v === undefined) return def;
  const l = v.toLowerCase();
  if (['on', 'true', '1', 'yes'].includes(l)) return true;
  if (['off', 'false', '0', 'no'].includes(l)) return false;
  throw new ConfigError(name, `must be "on" or "off", got "${v}"`);
}

function namespace(env: Env, name: string): string | null {
  const v = str(env, name);
  if (v === undefined) return null;
  if (!/^[a-z0-9][a-z0-9_]*-(supply|machine)$/.test(v)) {
    throw new ConfigError(name, `must be a namespace "<vendor>-supply" or "<vendor>-machine", got "${v}"`);
  }
  return v;
}

function url(env: Env, name: string, protocols: string[]): string | null {
  const v = str(env, name);
  if (v === undefined) return null;
  let parsed: URL;
  try {
    parsed = new URL(v);
  } catch {
    throw new ConfigError(name, 'must be an absolute URL');
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must use one of ${protocols.join(', ')}`);
  }
  return v;
}

export function loadConfig(env: Env, readFile: (path: string) => string = defaultReadFile): AppConfig {
  const serviceEnv = str(env, 'SERVICE_ENV') ?? 'staging';
  if (serviceEnv !== 'production' && serviceEnv !== 'staging') {
    throw new ConfigError('SERVICE_ENV', `must be "production" or "staging", got "${serviceEnv}"`);
  }
  const serviceName = str(env, 'SERVICE_NAME') ?? 'vending';
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(serviceName)) {
    throw new ConfigError('SERVICE_NAME', 'must be 1-40 letters, digits, "_" or "-" (it names the auth cookie)');
  }

  let httpVendors: unknown[] = [];
  const vendorsRaw = str(env, 'SERVICE_HTTP_VENDORS');
  if (vendorsRaw !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(vendorsRaw);
    } catch {
      throw new ConfigError('SERVICE_HTTP_VENDORS', 'is not valid JSON');
    }
    if (!Array.isArray(parsed)) throw new ConfigError('SERVICE_HTTP_VENDORS', 'must be a JSON array');
    httpVendors = parsed;
  }

  let guardsJson: string | null = str(env, 'SERVICE_GUARDS') ?? null;
  const guardsFile = str(env, 'SERVICE_GUARDS_FILE');
  if (guardsJson === null && guardsFile !== undefined) {
    try {
      guardsJson = readFile(guardsFile);
    } catch {
      // Unreadable rules do not stop the boot: money paths answer guard_unverifiable (docs/contract/).
      guardsJson = '\u0000unreadable';
    }
  }

  let adminChats: AppConfig['adminChats'] = [];
  const chatsRaw = str(env, 'SERVICE_ADMIN_CHATS');
  if (chatsRaw !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(chatsRaw);
    } catch {
      throw new ConfigError('SERVICE_ADMIN_CHATS', 'is not valid JSON');
    }
    const ok =
      Array.isArray(parsed) &&
      parsed.every(
        (c) =>
          c !== null &&
          typeof c === 'object' &&
          typeof (c as { chat_id?: unknown }).chat_id === 'string' &&
          Array.isArray((c as { admins?: unknown }).admins) &&
          ((c as { admins: unknown[] }).admins).every((a) => typeof a === 'string'),
      );
    if (!ok) throw new ConfigError('SERVICE_ADMIN_CHATS', 'must be [{"chat_id": "...", "admins": ["..."]}]');
    adminChats = parsed as AppConfig['adminChats'];
  }

  const cors = str(env, 'SERVICE_CORS_ORIGINS');
  const corsOrigins = cors ? cors.split(',').map((s) => s.trim()).filter(Boolean) : [];
  for (const o of corsOrigins) {
    try {
      new URL(o);
    } catch {
      throw new ConfigError('SERVICE_CORS_ORIGINS', `"${o}" is not an origin URL`);
    }
  }

  const chatTokens = chatTokensOf(env, adminChats);

  const authToken = env.SERVICE_AUTH_TOKEN && env.SERVICE_AUTH_TOKEN.length > 0 ? env.SERVICE_AUTH_TOKEN : null;
  const approverToken = env.SERVICE_APPROVER_TOKEN && env.SERVICE_APPROVER_TOKEN.length > 0 ? env.SERVICE_APPROVER_TOKEN : null;
  if (approverToken !== null && approverToken === authToken) {
    throw new ConfigError('SERVICE_APPROVER_TOKEN', 'must differ from SERVICE_AUTH_TOKEN (it separates the owner from the operator)');
  }
  const metricsToken = str(env, 'SERVICE_METRICS_TOKEN') ?? null;
  if (metricsToken !== null && (metricsToken === authToken || metricsToken === approverToken)) {
    throw new ConfigError('SERVICE_METRICS_TOKEN', 'must differ from SERVICE_AUTH_TOKEN and SERVICE_APPROVER_TOKEN (a scraper opens nothing else)');
  }
  const publicUrl = url(env, 'SERVICE_PUBLIC_URL', ['http:', 'https:'])?.replace(/\/+$/, '') ?? null;
  // Guessable tokens stop the boot in every environment; the message names the variable, never the value.
  for (const [name, token] of [['SERVICE_AUTH_TOKEN', authToken], ['SERVICE_APPROVER_TOKEN', approverToken], ['SERVICE_METRICS_TOKEN', metricsToken]] as const) {
    if (token !== null && token.length < MIN_TOKEN_LENGTH) throw new ConfigError(name, `must be at least ${MIN_TOKEN_LENGTH} characters`);
  }
  if (chatTokens.some((c) => c.token === authToken || c.token === approverToken || c.token === metricsToken)) {
    throw new ConfigError('SERVICE_CHAT_TOKENS', 'a chat token must differ from SERVICE_AUTH_TOKEN, SERVICE_APPROVER_TOKEN and SERVICE_METRICS_TOKEN');
  }
  const externalOAuth = externalOAuthOf((name, protocols) => url(env, name, protocols), serviceEnv === 'production');
  // Production never derives its links from the request's Host header.
  if (serviceEnv === 'production' && publicUrl === null) {
    throw new ConfigError('SERVICE_PUBLIC_URL', 'is required in production (absolute links never come from the Host header)');
  }
  const headersMs = int(env, 'SERVICE_HEADERS_TIMEOUT_MS', 10_000, 1000, 600_000);
  const requestMs = int(env, 'SERVICE_REQUEST_TIMEOUT_MS', 30_000, 1000, 3_600_000);
  if (headersMs > requestMs) throw new ConfigError('SERVICE_HEADERS_TIMEOUT_MS', `must not exceed SERVICE_REQUEST_TIMEOUT_MS (${requestMs})`);
  const rateLimitPerWindow = offOrInt(env, 'SERVICE_RATE_LIMIT', 600, 1, 1_000_000);

  const clock = str(env, 'SERVICE_CLOCK') ?? 'system';
  if (clock !== 'system' && clock !== 'adjustable') throw new ConfigError('SERVICE_CLOCK', `must be "system" or "adjustable", got "${clock}"`);
  // A clock someone can move would move budgets, forecasts and lead times: production reads the machine's clock.
  if (clock === 'adjustable' && serviceEnv === 'production') throw new ConfigError('SERVICE_CLOCK', 'adjustable is for staging and replays; production reads the machine clock');
  const host = str(env, 'HOST') ?? '0.0.0.0';
  return {
    port: int(env, 'PORT', 8080, 0, 65535),
    host,
    env: serviceEnv,
    authToken,
    approverToken,
    serviceName,
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    replicas: replicaConfigOf(env, url(env, 'DATABASE_URL', ['postgres:', 'postgresql:'])),
    dataDir: str(env, 'SERVICE_DATA_DIR') ?? './data',
    embeddedMemorySeed: null,
    httpVendors,
    defaultMachineNamespace: namespace(env, 'SERVICE_DEFAULT_MACHINE_NAMESPACE'),
    defaultSupplyNamespace: namespace(env, 'SERVICE_DEFAULT_SUPPLY_NAMESPACE'),
    guardsJson,
    killSwitchAtBoot: onOff(env, 'SERVICE_KILL_SWITCH', false),
    adminChats,
    chatTokens,
    schedulerEnabled: onOff(env, 'SERVICE_SCHEDULER', true),
    maxBodyBytes: int(env, 'SERVICE_MAX_BODY_BYTES', 1048576, 1, 1024 * 1024 * 1024),
    publicUrl,
    externalOAuth,
    partnerTimeoutMs: int(env, 'SERVICE_PARTNER_TIMEOUT_MS', 10000, 1, 600000),
    corsOrigins,
    stagingSeed: onOff(env, 'SERVICE_STAGING_SEED', false),
    rateLimit:
      rateLimitPerWindow === null
        ? null
        : { limit: rateLimitPerWindow, windowMs: int(env, 'SERVICE_RATE_LIMIT_WINDOW_MS', 60_000, 1000, 3_600_000), signInLimit: int(env, 'SERVICE_RATE_LIMIT_SIGN_IN', 10, 1, 1_000_000) },
    trustedProxies: trustedProxiesOf(env),
    serverTimeouts: {
      headersMs,
      requestMs,
      keepAliveMs: int(env, 'SERVICE_KEEPALIVE_TIMEOUT_MS', 5_000, 1000, 600_000),
    },
    consoleDir: str(env, 'SERVICE_CONSOLE_DIR') ?? null,
    eventPageCache: onOff(env, 'SERVICE_EVENT_PAGE_CACHE', true),
    metricsToken,
    databasePoolIdleMs: int(env, 'DATABASE_POOL_IDLE_MS', 10_000, 1, 3_600_000),
    adjustableClock: clock === 'adjustable',
    reviewPeriodDays: int(env, 'SERVICE_REVIEW_PERIOD_DAYS', 7, 1, 28),
    serviceLevelZ: decimal(env, 'SERVICE_LEVEL_Z', 1.65, 0, 4),
    statedLeadTimeSigmaDays: decimal(env, 'SERVICE_STATED_LEAD_TIME_SIGMA_DAYS', 0, 0, 10),
    route: { stopsPerDay: int(env, 'SERVICE_ROUTE_STOPS_PER_DAY', 9, 1, 1000), stopCostFen: int(env, 'SERVICE_ROUTE_STOP_COST_FEN', 5000, 0, 100_000_000) },
  };
}

function trustedProxiesOf(env: Env): string[] {
  const v = str(env, 'SERVICE_TRUSTED_PROXIES');
  const entries = v ? v.split(',').map((e) => e.trim()).filter(Boolean) : [];
  try {
    trustedProxies(entries);
  } catch (e) {
    throw new ConfigError('SERVICE_TRUSTED_PROXIES', `"${(e as Error).message}" is not an IP address, a CIDR range or "loopback"`);
  }
  return entries;
}

/** SERVICE_CHAT_TOKENS: a JSON object `{ "<chat_id>": "<token>" }`, every key a chat of SERVICE_ADMIN_CHATS. */
function chatTokensOf(env: Env, adminChats: AppConfig['adminChats']): AppConfig['chatTokens'] {
  const raw = str(env, 'SERVICE_CHAT_TOKENS');
  if (raw === undefined) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError('SERVICE_CHAT_TOKENS', 'is not valid JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ConfigError('SERVICE_CHAT_TOKENS', 'must be {"<chat_id>": "<token>"}');
  const out: AppConfig['chatTokens'] = [];
  for (const [chat_id, token] of Object.entries(parsed as Record<string, unknown>)) {
    // Errors name the chat, never the token.
    if (!adminChats.some((c) => c.chat_id === chat_id)) throw new ConfigError('SERVICE_CHAT_TOKENS', `chat "${chat_id}" is not in SERVICE_ADMIN_CHATS`);
    if (typeof token !== 'string' || token.length < MIN_TOKEN_LENGTH) throw new ConfigError('SERVICE_CHAT_TOKENS', `the token of chat "${chat_id}" must be a string of at least ${MIN_TOKEN_LENGTH} characters`);
    if (out.some((o) => o.token === token)) throw new ConfigError('SERVICE_CHAT_TOKENS', `the token of chat "${chat_id}" is another chat's token`);
    out.push({ chat_id, token });
  }
  return out;
}

function defaultReadFile(path: string): string {
  return readFileSync(path, 'utf8');
}

export const APP_CONFIG = Symbol('APP_CONFIG');
