import { DataSource, EntityManager, EntitySubscriberInterface, QueryRunner, TransactionCommitEvent, TransactionRollbackEvent } from 'typeorm';

type Pending = { depth: number; run: () => void };

/** The runner's transaction nesting (1 = the outer transaction, more inside savepoints). */
function depthOf(qr: QueryRunner): number {
  const d = (qr as unknown as { transactionDepth?: number }).transactionDepth;
  return typeof d === 'number' && d > 0 ? d : 1;
}

/**
 * Runs work once the transaction of an EntityManager has committed, and never when it rolls back: a TypeORM
 * subscriber of the transaction events of one DataSource. Used to publish events written inside a caller's
 * transaction (EventsService.record(e, manager) then publish after commit) without every caller doing it.
 * Savepoints (a transaction inside a transaction) are followed: work registered inside a savepoint that rolls back
 * is dropped; released, it waits for the outer commit. Work given a manager outside any transaction runs at once.
 */
export class AfterCommit implements EntitySubscriberInterface {
  private readonly pending = new WeakMap<QueryRunner, Pending[]>();

  constructor(ds: DataSource) {
    ds.subscribers.push(this);
  }

  defer(manager: EntityManager, run: () => void): void {
    const qr = manager.queryRunner;
    if (!qr || !qr.isTransactionActive) {
      run();
      return;
    }
    const list = this.pending.get(qr) ?? [];
    list.push({ depth: depthOf(qr), run });
    this.pending.set(qr, list);
  }

  afterTransactionCommit(e: TransactionCommitEvent): void {
    const qr = e.queryRunner;
    const list = this.pending.get(qr);
    if (!list) return;
    if (qr.isTransactionActive) {
      // A savepoint was released: its work now belongs to the enclosing level.
      const depth = depthOf(qr);
      for (const p of list) p.depth = Math.min(p.depth, depth);
      return;
    }
    this.pending.delete(qr);
    // Not awaited: the transaction's connection is still held here (and the embedded pool has one connection).
    for (const p of list) p.run();
  }

  afterTransactionRollback(e: TransactionRollbackEvent): void {
    const qr = e.queryRunner;
    const list = this.pending.get(qr);
    if (!list) return;
    if (!qr.isTransactionActive) {
      this.pending.delete(qr);
      return;
    }
    const depth = depthOf(qr);
    this.pending.set(
      qr,
      list.filter((p) => p.depth <= depth),
    );
  }
}
