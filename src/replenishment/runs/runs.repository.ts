import { Injectable } from '@nestjs/common';
import { In, Repository } from 'typeorm';
import { SlotEntity } from '../../inventory/slot.entity';
import { RestockOrderEntity } from '../../restock/restock-order.entity';
import { ReplenishmentRunEntity } from './replenishment-run.entity';
import { RUN_MACHINE, RunStatus } from './run.rules';
import { CLAIM_TIME_NOW, expiredClaims, heldClaimWhere, stampClaim, updateWhileHeld } from '../../claims/lease.sql';
import { Tx } from '../../database/tx';
import { recordStockReadings } from '../../forecasting/demand/stock-readings.sql';

/** Runs and the slot rows a delivery raises. Queries only; every status written is a move of RUN_MACHINE. */
@Injectable()
export class RunsRepository {
  constructor(private readonly tx: Tx) {}

  /** The runs of the current transaction (Tx), or outside one, the plain manager. */
  private repo(): Repository<ReplenishmentRunEntity> {
    return this.tx.manager.getRepository(ReplenishmentRunEntity);
  }

  insert(run: Partial<ReplenishmentRunEntity>): Promise<ReplenishmentRunEntity> {
    const r = this.repo();
    return r.save(r.create(run));
  }

  find(id: string): Promise<ReplenishmentRunEntity | null> {
    return this.repo().findOne({ where: { id } });
  }

  /** The run row locked for the rest of the transaction. */
  findForUpdate(id: string): Promise<ReplenishmentRunEntity | null> {
    return this.repo().createQueryBuilder('r').setLock('pessimistic_write').where('r.id = :id', { id }).getOne();
  }

  list(q: { status?: string; limit: number }): Promise<ReplenishmentRunEntity[]> {
    const qb = this.repo().createQueryBuilder('r').orderBy('r.created_at', 'DESC').addOrderBy('r.id', 'DESC').limit(q.limit);
    if (q.status !== undefined) qb.where('r.status = :status', { status: q.status });
    return qb.getMany();
  }

  async update(id: string, patch: Partial<ReplenishmentRunEntity>): Promise<void> {
    await this.repo().update({ id }, patch as never);
  }

  /** Moves a run from one status to another (a legal move of RUN_MACHINE) in one statement; false when it was not in `from`. */
  async transition(id: string, from: RunStatus, to: RunStatus, patch: Partial<ReplenishmentRunEntity> = {}): Promise<boolean> {
    const res = await this.repo()
      .createQueryBuilder()
      .update()
      .set({ ...patch, status: RUN_MACHINE.move(from, to) } as never)
      .where('id = :id AND status = :from', { id, from })
      .execute();
    return (res.affected ?? 0) > 0;
  }

  /**
   * Claims a ready run for placing: `placing`, `claimed_at` = the database clock to the millisecond (so the claim
   * compares equal once read back). The stored claim time, or null when the run was not ready.
   */
  async claimForPlacing(id: string): Promise<Date | null> {
    return stampClaim(
      this.repo()
        .createQueryBuilder()
        .update()
        .set({ status: RUN_MACHINE.move('ready', 'placing'), claimedAt: () => CLAIM_TIME_NOW } as never)
        .where(`id = :id AND status = 'ready'`, { id }),
    );
  }

  /** Renews a live claim (a long multi-location place); the new claim time, or null when the claim is no longer held. */
  async renewClaim(id: string, claimedAt: Date | null): Promise<Date | null> {
    return stampClaim(this.repo().createQueryBuilder().update().set({ claimedAt: () => CLAIM_TIME_NOW } as never).where(heldClaimWhere('placing'), { id, claimedAt }));
  }

  /**
   * Settles the claim stamped `claimedAt`: moves the run from `placing` to `to` only while that claim still holds it
   * (a recovery or a later place may have taken it meanwhile); false otherwise.
   */
  async settleClaim(id: string, claimedAt: Date | null, to: RunStatus, patch: Partial<ReplenishmentRunEntity> = {}): Promise<boolean> {
    return updateWhileHeld(this.repo().createQueryBuilder().update().set({ ...patch, status: RUN_MACHINE.move('placing', to) } as never), 'placing', id, claimedAt);
  }

  /** Runs in `placing` whose claim is older than `leaseMs` (database clock) or unknown, oldest first. */
  expiredPlacing(leaseMs: number, limit: number): Promise<ReplenishmentRunEntity[]> {
    return expiredClaims(this.repo().createQueryBuilder('r'), 'r', 'placing', leaseMs, limit);
  }

  slotsForUpdate(ids: string[]): Promise<SlotEntity[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.tx.manager.getRepository(SlotEntity).createQueryBuilder('s').setLock('pessimistic_write').where({ id: In(ids) }).orderBy('s.id').getMany();
  }

  /**
   * A slot's stock changed by the service (a delivery, a depot fill): the new stock, and the lower of before and after
   * as the slot's reading of the day of `at` (the service clock): a slot refilled from 0 stood empty that day.
   */
  async setSlotStock(id: string, change: { before: number; after: number; at: Date }): Promise<void> {
    await this.tx.manager.getRepository(SlotEntity).update({ id }, { stock: change.after });
    await recordStockReadings(this.tx.manager, [{ slotId: id, stock: Math.min(change.before, change.after) }], change.at);
  }

  /**
   * Placed runs of `kinds` (those the machine platforms deliver: the caller asks the fulfillers), oldest first (the
   * follow-up checks their restock orders).
   */
  placedRunsOfKinds(kinds: readonly string[], limit: number): Promise<ReplenishmentRunEntity[]> {
    return this.repo()
      .createQueryBuilder('r')
      .where('r.status = :status', { status: 'placed' })
      .andWhere('r.fulfiller_kind = ANY(:kinds)', { kinds: [...kinds] })
      .orderBy('r.created_at', 'ASC')
      .limit(limit)
      .getMany();
  }

  /** The restock orders under these (namespace, reference) keys (the unique index answers each). */
  restockOrders(keys: { namespace: string; reference: string }[]): Promise<RestockOrderEntity[]> {
    if (keys.length === 0) return Promise.resolve([]);
    const repo = this.tx.manager.getRepository(RestockOrderEntity);
    return repo.find({ where: keys.map((k) => ({ namespace: k.namespace, reference: k.reference })) });
  }
}
