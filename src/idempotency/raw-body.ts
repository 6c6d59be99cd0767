import type { Request } from 'express';

/** The raw bytes of a JSON request body, kept by the body parser's `verify` (bootstrap.ts); '' when there was none. */
export function rawBodyOf(req: Request): string {
  const raw = (req as Request & { rawBody?: Buffer }).rawBody;
  return raw ? raw.toString('utf8') : '';
}

/** The Idempotency-Key header, or undefined. */
export function idempotencyKeyOf(req: Request): string | undefined {
  const v = req.headers['idempotency-key'];
  const s = Array.isArray(v) ? v[0] : v;
  return s === undefined ? undefined : s;
}
