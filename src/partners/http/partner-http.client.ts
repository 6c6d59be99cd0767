/**
 * The HTTP client of one registered partner, through @nestjs/axios's HttpService (the design card's choice; one
 * service for every partner, its shared rules in PARTNER_AXIOS_CONFIG): JSON over HTTP(S), bearer token.
 *
 * Failures become PartnerError: network error, timeout or 5xx → 'unreachable'; 401/403 → 'unauthorized';
 * another 4xx → 'rejected' with the partner's `reason` (a 404 saying `{ok:false}` also marks the reference unknown); a 2xx that is not JSON or says `{ok:false}` → 'malformed'.
 *
 * No call is ever retried here. Money-moving calls (POST /orders, POST /restock) must never be repeated behind the
 * caller's back, and reads are not retried either so that one rule holds for every call and the schedulers, which
 * run again minutes later anyway, own the timing. The token is sent only in the Authorization header: it is never
 * logged, never put in a URL, and scrubbed from any partner text that ends up in an error reason.
 */
import { HttpService } from '@nestjs/axios';
import axios, { AxiosResponse } from 'axios';
import { firstValueFrom } from 'rxjs';
import { PartnerError } from '../adapter.types';
import { partnerEndpoint } from '../../metrics/metrics.rules';

/** What a finished call reports (the metrics, issue 28): its endpoint without references, its outcome and duration. */
export type PartnerCallObserver = (namespace: string, endpoint: string, outcome: 'ok' | PartnerError['kind'], seconds: number) => void;

export interface PartnerHttpOptions {
  timeoutMs: number;
  userAgent: string;
  /** The app's partner HttpService (@nestjs/axios, PartnersModule); a client built outside Nest makes its own. */
  http?: HttpService;
  observe?: PartnerCallObserver;
}

/** Partner answers larger than this are not a contract answer (a ledger page of 100 orders is far smaller). */
const MAX_BODY_BYTES = 16 * 1024 * 1024;
const MAX_REASON_CHARS = 300;

/**
 * What every partner call shares, whatever the partner (the HttpModule's configuration): statuses and JSON are
 * judged here, so that every failure maps to exactly one PartnerError kind; no redirect, since one could carry the
 * Authorization header to another host (the contract has none); a bounded body.
 */
export const PARTNER_AXIOS_CONFIG = {
  validateStatus: () => true,
  responseType: 'text' as const,
  transformResponse: [(data: unknown) => data],
  maxRedirects: 0,
  maxContentLength: MAX_BODY_BYTES,
};

export class PartnerHttpClient {
  private readonly http: HttpService;
  private readonly baseURL: string;
  private readonly headers: Record<string, string>;
  private readonly timeoutMs: number;
  private readonly observe: PartnerCallObserver;

  constructor(
    readonly namespace: string,
    baseUrl: string,
    private readonly token: string,
    options: PartnerHttpOptions,
  ) {
    this.timeoutMs = options.timeoutMs;
    this.http = options.http ?? new HttpService(axios.create(PARTNER_AXIOS_CONFIG));
    this.observe = options.observe ?? (() => undefined);
    this.baseURL = baseUrl.replace(/\/+$/, '');
    this.headers = {
      Authorization: `Bearer ${token}`,
      'User-Agent': options.userAgent,
      Accept: 'application/json',
    };
  }

  /** GET `path` with query parameters; returns the parsed JSON body of a 2xx answer. */
  get(path: string, query: Record<string, string | number> = {}): Promise<unknown> {
    const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
    return this.send('GET', qs ? `${path}?${qs}` : path);
  }

  /** POST a JSON body to `path`; returns the parsed JSON body of a 2xx answer. Sent once, never retried. */
  post(path: string, body: unknown): Promise<unknown> {
    return this.send('POST', path, body);
  }

  private async send(method: 'GET' | 'POST', url: string, data?: unknown): Promise<unknown> {
    const start = performance.now();
    const endpoint = partnerEndpoint(method, url);
    try {
      const value = await this.exchange(method, url, data);
      this.observe(this.namespace, endpoint, 'ok', (performance.now() - start) / 1000);
      return value;
    } catch (e) {
      this.observe(this.namespace, endpoint, e instanceof PartnerError ? e.kind : 'unreachable', (performance.now() - start) / 1000);
      throw e;
    }
  }

  private async exchange(method: 'GET' | 'POST', url: string, data?: unknown): Promise<unknown> {
    const route = `${method} ${url.split('?')[0]}`;
    let res: AxiosResponse<string>;
    try {
      res = await firstValueFrom(
        this.http.request<string>({
          method,
          baseURL: this.baseURL,
          url,
          data,
          // Per partner; everything else is the HttpModule's PARTNER_AXIOS_CONFIG.
          headers: data === undefined ? this.headers : { ...this.headers, 'Content-Type': 'application/json' },
          timeout: this.timeoutMs,
          // The axios timeout is per socket inactivity in Node; this bounds the whole exchange as well.
          signal: AbortSignal.timeout(this.timeoutMs),
        }),
      );
    } catch (e) {
      throw this.fail('unreachable', `${route}: ${this.networkReason(e)}`);
    }
    return this.judge(route, res);
  }

  private judge(route: string, res: AxiosResponse<string>): unknown {
    const status = res.status;
    const body = parseJson(res.data);
    const partnerReason = body.ok && isErrorBody(body.value) ? body.value.reason : null;
    const said = partnerReason ? `: ${partnerReason}` : '';
    if (status === 401 || status === 403) return this.thrown('unauthorized', `${route} answered HTTP ${status}${said}`, status);
    if (status >= 500) return this.thrown('unreachable', `${route} answered HTTP ${status}${said}`, status);
    if (status >= 400) {
      const reason = partnerReason ?? `HTTP ${status} without an {ok:false, reason} body`;
      // Only a 404 that says {ok:false} is "this reference does not exist"; recovery releases money on nothing else.
      const refUnknown = status === 404 && body.ok && isObject(body.value) && body.value.ok === false;
      return this.thrown('rejected', `${route}: ${reason}`, status, refUnknown);
    }
    if (status < 200 || status >= 300) {
      return this.thrown('malformed', `${route} answered HTTP ${status}; the contract uses only 2xx, 4xx and 5xx`, status);
    }
    if (!body.ok) return this.thrown('malformed', `${route}: the 2xx answer is not JSON (${body.error})`, status);
    if (isObject(body.value) && body.value.ok === false) {
      return this.thrown('malformed', `${route}: a 2xx answer said {ok:false}${said}`, status);
    }
    return body.value;
  }

  private networkReason(e: unknown): string {
    if (axios.isCancel(e) || (e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError'))) {
      return `no answer within ${this.timeoutMs} ms`;
    }
    if (axios.isAxiosError(e)) {
      if (e.code === 'ECONNABORTED' || e.code === 'ETIMEDOUT') return `no answer within ${this.timeoutMs} ms`;
      if (e.code === 'ERR_FR_MAX_CONTENT_LENGTH_EXCEEDED' || e.code === 'ERR_BAD_RESPONSE') return `unusable answer (${e.code})`;
      // Only the code: axios messages and configs are never copied, so no header or URL detail can leak.
      return `network error (${e.code ?? 'unknown'})`;
    }
    return 'network error';
  }

  private thrown(kind: PartnerError['kind'], reason: string, status: number, refUnknown = false): never {
    throw this.fail(kind, reason, status, refUnknown);
  }

  /** Every reason passes here: the token is scrubbed even if a partner echoes it back in its own text. */
  private fail(kind: PartnerError['kind'], reason: string, status?: number, refUnknown = false): PartnerError {
    let clean = this.token ? reason.split(this.token).join('[redacted]') : reason;
    if (clean.length > MAX_REASON_CHARS) clean = `${clean.slice(0, MAX_REASON_CHARS - 3)}...`;
    return new PartnerError(kind, this.namespace, clean, status, refUnknown);
  }
}

function parseJson(text: unknown): { ok: true; value: unknown } | { ok: false; error: string } {
  if (typeof text !== 'string' || text.trim() === '') return { ok: false, error: 'empty body' };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, error: `starts with ${JSON.stringify(text.slice(0, 40))}` };
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function isErrorBody(v: unknown): v is { ok: false; reason: string } {
  return isObject(v) && v.ok === false && typeof v.reason === 'string' && v.reason !== '';
}
