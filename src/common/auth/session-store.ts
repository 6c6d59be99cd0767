import { Global, Injectable, Module } from '@nestjs/common';
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
    if (!/^[A-Za-z0-9_-]{43}$/.test(id)) return null;
    const rows = (await this.ds.query(`SELECT credential FROM console_sessions WHERE id_hash = $1 AND expires_at > now()`, [hashOf(id)])) as { credential: string }[];
    const c = rows[0]?.credential;
    return c === 'operator' || c === 'approver' ? c : null;
  }

  async revoke(id: string): Promise<void> {
    await this.ds.query(`DELETE FROM console_sessions WHERE id_hash = $1`, [hashOf(id)]);
  }
}

@Global()
@Module({ providers: [SessionStore], exports: [SessionStore] })
export class SessionStoreModule {}
