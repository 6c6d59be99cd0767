import { createHash } from 'node:crypto';
import { stateMachine } from '../common/state-machine.rules';

/** Idempotency fingerprint (docs/contract/): the operation, the resource id and the SHA-256 of the raw body. */
/**
 * `principal`: who sent the request (issue 26), so a key is bound to the credential that first used it and another
 * credential replaying it gets 409 `idempotency_key_mismatch`, never the first caller's answer. The operator's
 * requests hash as before (keys stored before the change keep working for it); any other credential is part of the hash.
 */
export function fingerprint(operation: string, resourceId: string, rawBody: string | Buffer, principal = 'operator'): string {
  const bodyHash = createHash('sha256').update(rawBody).digest('hex');
  const who = principal === 'operator' ? '' : `\n${principal}`;
  return createHash('sha256').update(`${operation}\n${resourceId}\n${bodyHash}${who}`).digest('hex');
}

/**
 * Keys are kept this long (the contract says at least 24 hours): a replay within it returns the stored answer; after
 * it the key is deleted by the cleanup job (or replaced on its next use) and the same key starts a new request.
 */
export const KEY_RETENTION_HOURS = 24;
/** The cleanup job deletes at most CLEANUP_BATCH keys per statement and CLEANUP_MAX_BATCHES statements per pass. */
export const CLEANUP_BATCH = 1000;
export const CLEANUP_MAX_BATCHES = 100;

/** A key is 1 to 255 visible ASCII characters. */
export function validKey(key: string): boolean {
  return /^[\x21-\x7e]{1,255}$/.test(key);
}

/**
 * Which outcomes are stored under a key. A success, and a 502 (a partner was called: the answer must replay rather
 * than call it again), are stored. A refusal before anything happened (400, 404, 409, 503) releases the key so the
 * same request may be sent again once the cause is fixed.
 */
export function storesOutcome(status: number): boolean {
  return (status >= 200 && status < 300) || status === 502;
}

/**
 * A key's states: `in_flight` while its first request runs (a stale claim is taken over by the same request, staying
 * in_flight), then `done` with the stored answer. A request whose outcome is not stored deletes its key instead.
 */
export const IDEMPOTENCY_MACHINE = stateMachine<'in_flight' | 'done'>('idempotency key', {
  in_flight: ['in_flight', 'done'],
  done: [],
});
