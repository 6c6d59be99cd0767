import { createHash } from 'node:crypto';

/**
 * Pure rules of multi-instance coordination (no Nest, no TypeORM).
 *
 * A job lock name maps to a stable signed 64-bit PostgreSQL advisory lock key: the first 8 bytes of
 * SHA-256("ucp-job-lock:" + name), read as a signed big-endian integer. Stable across processes, versions and
 * machines (unlike a runtime hash), and the prefix keeps job keys apart from the migration lock's fixed key.
 */
export function jobLockKey(name: string): string {
  if (name.length === 0) throw new Error('a job lock needs a name');
  const digest = createHash('sha256').update(`ucp-job-lock:${name}`).digest();
  return digest.readBigInt64BE(0).toString();
}

/**
 * In-process try-locks by name: the embedded database's advisory locks do not exclude (every connection shares
 * one backend), so there a lock only needs to exclude within this one process. `tryAcquire` never waits: a job
 * that finds its lock taken skips this tick.
 */
export class InProcessLocks {
  private readonly held = new Set<string>();

  /** Returns the release function, or null when `name` is already held. Releasing twice is harmless. */
  tryAcquire(name: string): (() => void) | null {
    if (this.held.has(name)) return null;
    this.held.add(name);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.held.delete(name);
    };
  }

  isHeld(name: string): boolean {
    return this.held.has(name);
  }
}
