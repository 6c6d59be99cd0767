import type { EntityManager, QueryRunner, TransactionCommitEvent, TransactionRollbackEvent } from 'typeorm';
import { AfterCommit } from '../../../src/approvals/after-commit';

/** A query runner double that moves through transaction depths the way TypeORM's PostgresQueryRunner does. */
function runner() {
  const qr = { isTransactionActive: false, transactionDepth: 0 };
  const ev = () => ({ queryRunner: qr as unknown as QueryRunner }) as TransactionCommitEvent & TransactionRollbackEvent;
  return {
    manager: { queryRunner: qr } as unknown as EntityManager,
    start() {
      qr.isTransactionActive = true;
      qr.transactionDepth++;
    },
    commit(ac: AfterCommit) {
      qr.transactionDepth--;
      qr.isTransactionActive = qr.transactionDepth > 0;
      ac.afterTransactionCommit(ev());
    },
    rollback(ac: AfterCommit) {
      qr.transactionDepth--;
      qr.isTransactionActive = qr.transactionDepth > 0;
      ac.afterTransactionRollback(ev());
    },
  };
}

describe('AfterCommit', () => {
  const make = () => {
    const ds = { subscribers: [] as unknown[] };
    const ac = new AfterCommit(ds as never);
    expect(ds.subscribers).toContain(ac);
    return ac;
  };

  it('runs at once without a transaction; after the commit inside one; never after a rollback', () => {
    const ac = make();
    const ran: string[] = [];
    ac.defer({ queryRunner: undefined } as unknown as EntityManager, () => ran.push('no-tx'));
    expect(ran).toEqual(['no-tx']);

    const a = runner();
    a.start();
    ac.defer(a.manager, () => ran.push('committed'));
    expect(ran).toEqual(['no-tx']);
    a.commit(ac);
    expect(ran).toEqual(['no-tx', 'committed']);

    const b = runner();
    b.start();
    ac.defer(b.manager, () => ran.push('rolled-back'));
    b.rollback(ac);
    b.start();
    b.commit(ac);
    expect(ran).toEqual(['no-tx', 'committed']);
  });

  it('savepoints: rolled back, their work is dropped; released, it waits for the outer commit', () => {
    const ac = make();
    const ran: string[] = [];
    const r = runner();
    r.start();
    ac.defer(r.manager, () => ran.push('outer'));
    r.start();
    ac.defer(r.manager, () => ran.push('savepoint-rolled-back'));
    r.rollback(ac);
    r.start();
    ac.defer(r.manager, () => ran.push('savepoint-released'));
    r.commit(ac);
    expect(ran).toEqual([]);
    r.commit(ac);
    expect(ran).toEqual(['outer', 'savepoint-released']);
  });
});
