import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CLAIM_TIME_NOW, leaseExpiredSql } from '../claims/lease.sql';
import { Tx } from '../database/tx';
import { queryReturning } from '../database/returning';
import type { CarriedWrite } from '../database/carried-write';
import { IDEMPOTENCY_MACHINE, KEY_RETENTION_HOURS } from './idempotency.rules';

/** Seed of the key's advisory-lock hash (keeps these locks apart from the job locks' numbers). */
const KEY_LOCK_SEED = 727_100_500;

/** A key written with its answer is done at once: no other transaction sees it before it commits. */
const DONE: 'done' = 'done';

/** What a key is bound to when it is written with its answer. */
export type AnswerKey = { key: string; fingerprint: string; operation: string; resourceId: string };

export type StoredKey = { fingerprint: string; state: string; response_status: number | null; response_body: unknown; claimed_at: Date | null };

/**
 * The `idempotency_keys` table. Queries only. The claims of money-moving operations run on their own (autocommit on
 * the DataSource, never in the caller's Tx): a claim must be visible to other instances at once, and its outcome must
 * be stored even when the request's own transaction rolled back. `insertAnswer` alone joins the caller's
 * transaction (an operation that calls no money-moving partner stores its key and answer with its own writes).
 */
@Injectable()
export class IdempotencyKeysRepository {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly tx: Tx,
  ) {}

  /** Forgets the key when its last use is past retention, so that it can be claimed again. */
  async dropIfExpired(key: string): Promise<void> {
    await this.ds.query(`DELETE FROM idempotency_keys WHERE key = $1 AND created_at < now() - make_interval(hours => $2)`, [key, KEY_RETENTION_HOURS]);
  }

  /** Claims an unused key (in_flight); false when the key exists. */
  async claim(k: { key: string; fingerprint: string; operation: string; resourceId: string; claimId: string }): Promise<boolean> {
    const rows = await queryReturning(
      this.ds,
      `INSERT INTO idempotency_keys (key, fingerprint, operation, resource_id, state, claimed_at, claim_id) VALUES ($1, $2, $3, $4, 'in_flight', ${CLAIM_TIME_NOW}, $5)
       ON CONFLICT (key) DO NOTHING RETURNING key`,
      [k.key, k.fingerprint, k.operation, k.resourceId, k.claimId],
    );
    return rows.length > 0;
  }

  /**
   * Takes over an in_flight claim older than `leaseSeconds`, for the same request only (same fingerprint). One
   * statement, so of several instances retrying at once exactly one gets the row back: when the first attempt began.
   */
  async takeOverStale(key: string, fingerprint: string, claimId: string, leaseSeconds: number): Promise<Date | null> {
    const taken = await queryReturning<{ created_at: Date }>(
      this.ds,
      `UPDATE idempotency_keys SET claimed_at = ${CLAIM_TIME_NOW}, claim_id = $3
        WHERE key = $1 AND fingerprint = $2 AND state = 'in_flight' AND ${leaseExpiredSql('claimed_at', '$4')}
        RETURNING created_at`,
      [key, fingerprint, claimId, leaseSeconds],
    );
    return taken.length ? new Date(taken[0].created_at) : null;
  }

  async find(key: string): Promise<StoredKey | undefined> {
    const rows = (await this.ds.query(`SELECT fingerprint, state, response_status, response_body, claimed_at FROM idempotency_keys WHERE key = $1`, [key])) as StoredKey[];
    return rows[0];
  }

  /** The key when it is within retention (a key past it counts as unused: `insertAnswer` replaces it). */
  async findLive(key: string): Promise<StoredKey | undefined> {
    const rows = (await this.ds.query(
      `SELECT fingerprint, state, response_status, response_body, claimed_at FROM idempotency_keys WHERE key = $1 AND created_at >= now() - make_interval(hours => $2)`,
      [key, KEY_RETENTION_HOURS],
    )) as StoredKey[];
    return rows[0];
  }

  /**
   * Writes an unused key (or one past retention, or an in_flight claim of the same request past its lease: left by a
   * process that died) with its answer, `done`, in the current transaction (Tx) when there is one: false when the key
   * is in use: written and committed, or held by a concurrent transaction still running (its advisory lock on the
   * key), which this one never waits for.
   */
  async insertAnswer(k: AnswerKey, status: number, body: unknown, leaseSeconds: number): Promise<boolean> {
    const write = this.answerWrite(k, status, body, leaseSeconds);
    const params: unknown[] = [];
    const ctes = write.ctes((v) => `$${params.push(v)}`);
    const rows: unknown[] = await this.tx.manager.query(`WITH ${ctes} SELECT key FROM ${write.written}`, params); // unnamed (issue 28)
    return rows.length > 0;
  }

  /**
   * `insertAnswer` as CTEs for the operation's own insert to carry (one round trip for both). A transaction-scoped
   * advisory lock on the key, taken in the same statement, is held by a
   * create still running with this key: then nothing is inserted and the caller answers "in use" at once instead of
   * waiting on the other transaction's uncommitted key.
   */
  answerWrite(k: AnswerKey, status: number, body: unknown, leaseSeconds: number): CarriedWrite {
    return {
      written: 'key_written',
      ctes: (bind) => {
        const key = bind(k.key);
        const fp = bind(k.fingerprint);
        return `key_held AS (SELECT pg_try_advisory_xact_lock(hashtextextended(${key}::text, ${KEY_LOCK_SEED})) AS mine),
       key_written AS (
         INSERT INTO idempotency_keys AS k (key, fingerprint, operation, resource_id, state, response_status, response_body, completed_at)
         SELECT ${key}::text, ${fp}::text, ${bind(k.operation)}::text, ${bind(k.resourceId)}::text, ${bind(DONE)}::text, ${bind(status)}::int, ${bind(JSON.stringify(body))}::jsonb, now()
           FROM key_held WHERE key_held.mine
         ON CONFLICT (key) DO UPDATE SET fingerprint = excluded.fingerprint, operation = excluded.operation, resource_id = excluded.resource_id,
           state = excluded.state, response_status = excluded.response_status, response_body = excluded.response_body,
           created_at = now(), claimed_at = now(), completed_at = now(), claim_id = NULL
         WHERE k.created_at < now() - make_interval(hours => ${bind(KEY_RETENTION_HOURS)}::int)
            OR (k.state = 'in_flight' AND k.fingerprint = excluded.fingerprint AND ${leaseExpiredSql('k.claimed_at', bind(leaseSeconds))})
         RETURNING key)`;
      },
    };
  }

  /** Stores the answer of the current claim (`claimId`); a taken-over claim's late answer changes nothing. */
  async storeOutcome(key: string, claimId: string, status: number, body: unknown): Promise<void> {
    await this.ds.query(
      `UPDATE idempotency_keys SET state = $5, response_status = $2, response_body = $3::jsonb, completed_at = now()
        WHERE key = $1 AND state = 'in_flight' AND claim_id = $4`,
      [key, status, JSON.stringify(body), claimId, IDEMPOTENCY_MACHINE.move('in_flight', 'done')],
    );
  }

  /**
   * Keeps the key of a resumed attempt (see IdempotencyService.run) bound to its request, its claim ended at once
   * (claim time 1970, past any lease): the next retry takes it over again without waiting.
   */
  async leaveResumable(key: string, claimId: string): Promise<void> {
    await this.ds.query(`UPDATE idempotency_keys SET claimed_at = to_timestamp(0), claim_id = NULL WHERE key = $1 AND state = 'in_flight' AND claim_id = $2`, [key, claimId]);
  }

  /** Frees the key of the current claim (an answer that is not stored, such as a 5xx). */
  async release(key: string, claimId: string): Promise<void> {
    await this.ds.query(`DELETE FROM idempotency_keys WHERE key = $1 AND state = 'in_flight' AND claim_id = $2`, [key, claimId]);
  }

  /** Deletes up to `batch` keys past retention, oldest first, through the created_at index; returns how many. */
  async deleteExpiredBatch(batch: number): Promise<number> {
    const rows = (await this.ds.query(
      `WITH doomed AS (
         SELECT key FROM idempotency_keys WHERE created_at < now() - make_interval(hours => $1) ORDER BY created_at LIMIT $2
       ), gone AS (
         DELETE FROM idempotency_keys k USING doomed WHERE k.key = doomed.key RETURNING 1
       )
       SELECT count(*)::int AS n FROM gone`,
      [KEY_RETENTION_HOURS, batch],
    )) as { n: number }[];
    return rows[0]?.n ?? 0;
  }
}
