import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { ClsService } from 'nestjs-cls';
import { EntityManager } from 'typeorm';
import { connectionLoss } from './connection-loss.rules';

const AFTER_COMMIT = Symbol('tx.afterCommit');
/** Failures of a transaction whose connection died before its COMMIT was sent: the server rolled it back. */
const ROLLED_BACK = new WeakSet<object>();

function fromTheDatabase(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  return 'driverError' in err || (err as { name?: unknown }).name === 'QueryRunnerAlreadyReleasedError';
}

/**
 * Issue 38: did this error end a transaction (of `Tx.run`) by a lost connection before its COMMIT was sent, so that
 * nothing of it committed? False for an ambiguous COMMIT (sent, answer lost) and for anything else.
 */
export function rolledBackByLostConnection(err: unknown): boolean {
  return typeof err === 'object' && err !== null && ROLLED_BACK.has(err);
}

/**
 * The transaction of the current request or job, carried by nestjs-cls (@nestjs-cls/transactional with its TypeORM
 * adapter): `run(fn)` opens one (or joins the one in progress), every repository reads `manager` (the transaction's
 * EntityManager inside it, the plain one outside), and `afterCommit(work)` defers work (publishing an event) until the
 * outermost transaction has committed; it is dropped on rollback. Services never pass an EntityManager around.
 * The embedded database serialises transactions: inside `run`, query only through `manager`.
 */
@Injectable()
export class Tx {
  constructor(
    private readonly host: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly cls: ClsService,
  ) {}

  /** The EntityManager to query with: the current transaction's, or the default one outside a transaction. */
  get manager(): EntityManager {
    return this.host.tx;
  }

  get active(): boolean {
    return this.cls.isActive() && this.host.isTransactionActive();
  }

  /** Runs `fn` in a transaction (joining the current one); deferred work runs after the outermost commit. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active) return fn();
    return this.cls.run({ ifNested: 'inherit' }, async () => {
      const queue: (() => unknown)[] = [];
      this.cls.set(AFTER_COMMIT, queue);
      const out = await this.host.withTransaction(fn).catch((err: unknown) => {
        // Only a statement's own failure (TypeORM's), not a partner's socket error inside the transaction.
        if (fromTheDatabase(err) && connectionLoss(err) === 'cut') ROLLED_BACK.add(err as object);
        throw err;
      });
      this.cls.set(AFTER_COMMIT, undefined);
      // Not inside the transaction any more: the connection is released (the embedded pool has one).
      for (const work of queue) await work();
      return out;
    });
  }

  /** Runs `work` once the current transaction commits (never if it rolls back); at once outside a transaction. */
  async afterCommit(work: () => unknown): Promise<void> {
    const queue = this.active ? (this.cls.get(AFTER_COMMIT) as (() => unknown)[] | undefined) : undefined;
    if (queue) queue.push(work);
    else await work();
  }
}
