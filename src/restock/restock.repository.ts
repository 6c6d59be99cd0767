import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { Tx } from '../database/tx';
import { LocationEntity } from '../locations/location.entity';
import { SlotEntity } from '../inventory/slot.entity';
import { RestockOrderEntity } from './restock-order.entity';
import { RESTOCK_MACHINE, RestockStatus } from './restock.rules';
import { CLAIM_TIME_NOW, expiredClaims, stampClaim, updateWhileHeld } from '../claims/lease.sql';

/** Restock orders and the roster lookup they need. Queries only. */
@Injectable()
export class RestockRepository {
  constructor(private readonly tx: Tx) {}

  private get orders() {
    return this.tx.manager.getRepository(RestockOrderEntity);
  }

  private get locations() {
    return this.tx.manager.getRepository(LocationEntity);
  }

  location(id: string): Promise<LocationEntity | null> {
    return this.locations.findOne({ where: { id } });
  }

  /** The location's synced slots of these goods (their stock and capacity bound a binding order). */
  slotsOf(locationId: string, skuIds: string[]): Promise<SlotEntity[]> {
    if (skuIds.length === 0) return Promise.resolve([]);
    return this.tx.manager.getRepository(SlotEntity).find({ where: { locationId, skuId: In([...new Set(skuIds)]) }, order: { id: 'ASC' } });
  }

  find(namespace: string, reference: string): Promise<RestockOrderEntity | null> {
    return this.orders.findOne({ where: { namespace, reference } });
  }

  /**
   * Claims (namespace, reference): `sending` with `claimed_at` = the database clock to the millisecond (so the claim
   * compares equal once read back); null when the reference is already taken.
   */
  async claim(row: Pick<RestockOrderEntity, 'namespace' | 'reference' | 'locationId' | 'binding' | 'lines' | 'fingerprint'>): Promise<RestockOrderEntity | null> {
    const claimed = await stampClaim(
      this.orders
        .createQueryBuilder()
        .insert()
        .values({ ...row, status: 'sending' satisfies RestockStatus, claimedAt: () => CLAIM_TIME_NOW } as never)
        .orIgnore(),
    );
    return claimed === null ? null : this.find(row.namespace, row.reference);
  }

  /** Claims a failed request again for a resend (`sending`, a new claim time); null when another caller took it. */
  async reclaimFailed(id: string): Promise<RestockOrderEntity | null> {
    const claimed = await stampClaim(
      this.orders
        .createQueryBuilder()
        .update()
        .set({ status: RESTOCK_MACHINE.move('failed', 'sending'), claimedAt: () => CLAIM_TIME_NOW, recovered: null } as never)
        .where(`id = :id AND status = 'failed'`, { id }),
    );
    return claimed === null ? null : this.orders.findOne({ where: { id } });
  }

  /**
   * Settles the send claimed at `claimedAt` (null: a send whose call ended without a usable answer): moves it out
   * of `sending` only while that claim still holds it (a recovery or a resend may have moved it meanwhile).
   */
  async settleClaim(id: string, claimedAt: Date | null, to: RestockStatus, patch: Partial<RestockOrderEntity> = {}): Promise<boolean> {
    return updateWhileHeld(this.orders.createQueryBuilder().update().set({ ...patch, status: RESTOCK_MACHINE.move('sending', to) } as never), 'sending', id, claimedAt);
  }

  /** Ends the live claim of a call that got no usable answer: still `sending`, no claim time (recover by reading). */
  async releaseClaim(id: string, claimedAt: Date | null): Promise<boolean> {
    return updateWhileHeld(this.orders.createQueryBuilder().update().set({ claimedAt: null } as never), 'sending', id, claimedAt);
  }

  /** Requests in `sending` whose claim is older than `leaseMs` (database clock) or absent, oldest first (then oldest request). */
  expiredSending(leaseMs: number, limit: number): Promise<RestockOrderEntity[]> {
    return expiredClaims(this.orders.createQueryBuilder('r'), 'r', 'sending', leaseMs, limit, 'created_at');
  }

  async update(id: string, patch: Partial<RestockOrderEntity>): Promise<void> {
    await this.orders.update({ id }, patch as never);
  }

  /** Binding orders the platform has not finished, least recently checked first. */
  open(limit: number): Promise<RestockOrderEntity[]> {
    return this.orders
      .createQueryBuilder('r')
      .where('r.binding = true')
      .andWhere({ status: In(['pending', 'in_progress']) })
      .orderBy('r.checked_at', 'ASC', 'NULLS FIRST')
      .addOrderBy('r.created_at', 'ASC')
      .limit(limit)
      .getMany();
  }
}
