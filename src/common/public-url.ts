import type { Request } from 'express';

/** Absolute base URL for links: SERVICE_PUBLIC_URL when set, else derived from the request. */
export function publicBase(configured: string | null, req: Request): string {
  if (configured) return configured;
  const host = req.get('host') ?? 'localhost';
  return `${req.protocol}://${host}`;
}
