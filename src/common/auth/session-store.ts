import { Injectable, Module } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { Credential } from './credential';

const hashOf = (id: string) => createHash('sha256').update(id).digest('hex');

/**
 * Console sign-in sessions (issue 26), in the database so every instance sees a sign-out at once. The cookie holds a
 * random id (32 bytes); the table holds its SHA-256, the credential that signed in and when it expires.
 */
@Injectable()
export class SessionStore {
  constructor(private readonly ds: DataSource) {}

  async create(credential: Credential, ttlSeconds: number): Promise<string> {
    const id = randomBytes(32).toString('base64url');
    await this.ds.query(`DELETE FROM console_sessions WHERE expires_at < now()`);
    await this.ds.query(`INSERT INTO console_sessions (id_hash, credential, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))`, [hashOf(id), credential, ttlSeconds]);
    return id;
  }

  /** The credential of a live session, or null (unknown, signed out or expired). */
  async lookup(id: string): Promise<Credential | null> {
    return (await this.find(id))?.credential ?? null;
  }

  /** A live session with the key it is held under (what a socket opened with it watches), or null. */
  async find(id: string): Promise<{ credential: Credential; key: string } | null> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(id)) return null;
    const key = hashOf(id);
    const rows = (await this.ds.query(`SELECT credential FROM console_sessions WHERE id_hash = $1 AND expires_at > now()`, [key])) as { credential: string }[];
    const c = rows[0]?.credential;
    return c === 'operator' || c === 'approver' ? { credential: c, key } : null;
  }

  /** Which of these sessions (by key) are still live in the shared table: a sign-out or expiry on any instance shows here. */
  async live(keys: string[]): Promise<Set<string>> {
    if (!keys.length) return new Set();
    const rows = (await this.ds.query(`SELECT id_hash FROM console_sessions WHERE id_hash = ANY($1::text[]) AND expires_at > now()`, [keys])) as { id_hash: string }[];
    return new Set(rows.map((r) => r.id_hash));
  }

  async revoke(id: string): Promise<void> {
    const key = hashOf(id);
    await this.ds.query(`DELETE FROM console_sessions WHERE id_hash = $1`, [key]);
    for (const l of this.revoked) l(key); // this instance's sockets close at once; other instances read the table
  }

  /** Called with a session's key when it is signed out on this instance. */
  onRevoked(listener: (key: string) => void): () => void {
    this.revoked.add(listener);
    return () => this.revoked.delete(listener);
  }

  private readonly revoked = new Set<(key: string) => void>();
}

/** Imported by what reads sessions: the console, the event socket and the app (its auth middleware, bootstrap). */
@Module({ providers: [SessionStore], exports: [SessionStore] })
export class SessionStoreModule {}
