import { Client } from 'pg';

/**
 * Fails the test in which any code sends a query on a pg connection that is still executing one. Inside a
 * transaction that means a `Promise.all` over repository calls sharing the transaction's connection: pg only
 * queues such queries today (with a DeprecationWarning) and pg 9 refuses them. Installed for the e2e tier
 * (jest.config.js setupFilesAfterEnv).
 */
type QueueingClient = Client & { _queryQueue?: unknown[]; _activeQuery?: unknown; pipeline?: boolean };

const overlaps: string[] = [];
const original = Client.prototype.query;
Client.prototype.query = function query(this: QueueingClient, ...args: unknown[]) {
  if (!this.pipeline && (this._activeQuery || (this._queryQueue?.length ?? 0) > 0)) {
    overlaps.push(new Error('a query was sent on a connection that is still executing one').stack ?? '');
  }
  return (original as (...a: unknown[]) => unknown).apply(this, args);
} as typeof Client.prototype.query;

/** The overlaps seen since the last call (the guard's own test takes the one it provokes). */
export function takeOverlaps(): string[] {
  return overlaps.splice(0);
}

afterEach(() => {
  expect(takeOverlaps()).toEqual([]);
});
