import { connectionLoss, LOST_CONNECTION_RETRY_AFTER_S } from '../../database/connection-loss.rules';
import { DomainError } from './errors';

/**
 * The answer to a request whose database connection died under it (docs/adr/0068-pooler-and-lost-connections.md):
 * The database says whether, and how, a connection was lost (connectionLoss); the answer is the service's:
 * 503 `not_ready` (the database was not reachable for it) with Retry-After, never a 500. Null for any other
 * error. What the client may conclude is in the message: nothing committed, or (COMMIT sent, answer lost) unknown.
 */
export function lostConnectionError(err: unknown): DomainError | null {
  if (err instanceof DomainError) return null;
  const loss = connectionLoss(err);
  if (loss === 'none') return null;
  const text =
    loss === 'commit_unknown'
      ? 'the database connection was lost while the request committed; its outcome is unknown: send it again with the same Idempotency-Key, or read before writing again'
      : 'the database connection was lost while the request ran (a restart of the database or its pooler); send it again, with the same Idempotency-Key for a write';
  return new DomainError('not_ready', text, { severity: 'recoverable', retryAfterSeconds: LOST_CONNECTION_RETRY_AFTER_S });
}
