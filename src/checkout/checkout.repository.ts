import { Injectable } from '@nestjs/common';
import { CheckoutSessionEntity } from './checkout-session.entity';
import { CHECKOUT_MACHINE, CheckoutStatus } from './checkout.rules';
import { CLAIM_TIME_NOW, expiredClaims, stampClaim } from '../claims/lease.sql';
import { returnedRows } from '../database/returning';
import { Tx } from '../database/tx';
import { CarriedWrite, carryingStatement } from '../database/carried-write';

/** Queries of checkout sessions (and of completed ones, the purchase orders). No business rules. */
@Injectable()
export class CheckoutRepository {
  constructor(private readonly tx: Tx) {}

  /** The sessions of the current transaction (Tx), or outside one, the plain manager. */
  private r() {
    return this.tx.manager.getRepository(CheckoutSessionEntity);
  }

  find(id: string): Promise<CheckoutSessionEntity | null> {
    return this.r().findOne({ where: { id } });
  }

  /** The row, locked until the transaction ends (two completes of one session serialise here). */
  findForUpdate(id: string): Promise<CheckoutSessionEntity | null> {
    return this.r().createQueryBuilder('s').setLock('pessimistic_write').where('s.id = :id', { id }).getOne();
  }

  /** The sessions a replenishment run opened (its purchase orders). */
  byRun(runId: string): Promise<CheckoutSessionEntity[]> {
    return this.r().find({ where: { runId }, order: { id: 'ASC' } });
  }

  async insert(row: Partial<CheckoutSessionEntity>): Promise<boolean> {
    return returnedRows(await this.r().createQueryBuilder().insert().values(row as never).orIgnore().returning('id').execute()).length > 0;
  }

  /** `insert`, carrying another write in the same statement (one round trip): what each wrote. */
  async insertCarrying(row: Partial<CheckoutSessionEntity>, carried: CarriedWrite): Promise<{ main: boolean; carried: boolean }> {
    const [sql, params] = this.r().createQueryBuilder().insert().values(row as never).orIgnore().returning('id').getQueryAndParameters();
    const statement = carryingStatement({ sql, params }, carried);
    // An unnamed statement (issue 28): a named one outlives its connection where one session serves several (the
    // embedded database, transaction-mode poolers) and then fails to prepare again.
    const rows: { main: number; carried: number }[] = await this.tx.manager.query(statement.sql, statement.params);
    return { main: rows[0].main > 0, carried: rows[0].carried > 0 };
  }

  async save(row: CheckoutSessionEntity): Promise<void> {
    row.updatedAt = new Date();
    await this.r().save(row);
  }

  /** Conditional transition in one statement (every `from -> to` a move of CHECKOUT_MACHINE); true when it moved. */
  async transition(id: string, from: readonly CheckoutStatus[], to: CheckoutStatus): Promise<boolean> {
    for (const f of from) CHECKOUT_MACHINE.move(f, to);
    const res = await this.r()
      .createQueryBuilder()
      .update()
      .set({ status: to, updatedAt: () => 'now()' } as never)
      .where('id = :id AND status IN (:...from)', { id, from })
      .execute();
    return (res.affected ?? 0) > 0;
  }

  /** Stamps the claim of a complete with the database clock to the millisecond; returns the stored claim time. */
  async markClaimed(id: string): Promise<Date> {
    const claimed = await stampClaim(this.r().createQueryBuilder().update().set({ claimedAt: () => CLAIM_TIME_NOW } as never).where('id = :id', { id }));
    if (claimed === null) throw new Error(`checkout session ${id} vanished while being claimed`);
    return claimed;
  }

  /** Sessions in complete_in_progress whose claim is older than `leaseMs` (database clock), oldest first. */
  expiredClaims(leaseMs: number, limit: number): Promise<CheckoutSessionEntity[]> {
    return expiredClaims(this.r().createQueryBuilder('s'), 's', 'complete_in_progress', leaseMs, limit);
  }

  /** Completed sessions (purchase orders), newest first, keyset on (completed_at, id). */
  listCompleted(q: { limit: number; after?: { completedAt: Date; id: string } }): Promise<CheckoutSessionEntity[]> {
    const qb = this.r().createQueryBuilder('s').where(`s.status = 'completed'`);
    if (q.after) qb.andWhere('(s.completed_at, s.id) < (:at, :id)', { at: q.after.completedAt, id: q.after.id });
    return qb.orderBy('s.completed_at', 'DESC').addOrderBy('s.id', 'DESC').limit(q.limit).getMany();
  }

  /** Completed orders the supplier has not finished (neither arrived nor cancelled), least recently checked first. */
  openOrders(limit: number): Promise<CheckoutSessionEntity[]> {
    return this.r()
      .createQueryBuilder('s')
      .where(`s.status = 'completed'`)
      .andWhere(`(s.supplier_state IS NULL OR s.supplier_state NOT IN ('arrived', 'cancelled'))`)
      .orderBy('s.supplier_checked_at', 'ASC', 'NULLS FIRST')
      .limit(limit)
      .getMany();
  }

  async saveSupplierStatus(id: string, s: { state: string; rawStatus: string | null; logistics: Record<string, unknown>[] }): Promise<void> {
    await this.r()
      .createQueryBuilder()
      .update()
      .set({ supplierState: s.state, supplierRawStatus: s.rawStatus, logistics: s.logistics as never, supplierCheckedAt: () => 'now()' } as never)
      .where('id = :id', { id })
      .execute();
  }
}
