import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { Tx } from '../database/tx';
import { LocationEntity } from '../locations/location.entity';
import { RestockOrderEntity } from './restock-order.entity';
import { RESTOCK_MACHINE, RestockStatus } from './restock.rules';

/** A claim time: the database clock to the millisecond. */
const CLAIM_NOW = "date_trunc('milliseconds', now())";

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

  find(namespace: string, reference: string): Promise<RestockOrderEntity | null> {
    return this.orders.findOne({ where: { namespace, reference } });
  }

  /**
   * Claims (namespace, reference): `sending` with `claimed_at` = the database clock to the millisecond (so the claim
   * compares equal once read back); null when the reference is already taken.
   */
  async claim(row: Pick<RestockOrderEntity, 'namespace' | 'reference' | 'locationId' | 'binding' | 'lines' | 'fingerprint'>): Promise<RestockOrderEntity | null> {
    const res = (await this.orders
      .createQueryBuilder()
      .insert()
      .values({ ...row, status: 'sending' satisfies RestockStatus, claimedAt: () => CLAIM_NOW } as never)
      .orIgnore()
      .returning('*')
      .execute()) as { raw: unknown[] };
    if (res.raw.length === 0) return null;
    return this.find(row.namespace, row.reference);
  }

  /** Claims a failed request again for a resend (`sending`, a new claim time); null when another caller took it. */
  async reclaimFailed(id: string): Promise<RestockOrderEntity | null> {
    const res = await this.orders
      .createQueryBuilder()
      .update()
      .set({ status: RESTOCK_MACHINE.move('failed', 'sending'), claimedAt: () => CLAIM_NOW, recovered: null } as never)
      .where(`id = :id AND status = 'failed'`, { id })
      .execute();
    if ((res.affected ?? 0) === 0) return null;
    return this.orders.findOne({ where: { id } });
  }

  /**
   * Settles the send claimed at `claimedAt` (null: a send whose call ended without a usable answer): moves it out
   * of `sending` only while that claim still holds it (a recovery or a resend may have moved it meanwhile).
   */
  async settleClaim(id: string, claimedAt: Date | null, to: RestockStatus, patch: Partial<RestockOrderEntity> = {}): Promise<boolean> {
    const res = await this.orders
      .createQueryBuilder()
      .update()
      .set({ ...patch, status: RESTOCK_MACHINE.move('sending', to) } as never)
      .where(`id = :id AND status = 'sending' AND date_trunc('milliseconds', claimed_at) IS NOT DISTINCT FROM :claimedAt`, { id, claimedAt })
      .execute();
    return (res.affected ?? 0) > 0;
  }

  /** Ends the live claim of a call that got no usable answer: still `sending`, no claim time (recover by reading). */
  async releaseClaim(id: string, claimedAt: Date | null): Promise<boolean> {
    const res = await this.orders
      .createQueryBuilder()
      .update()
      .set({ claimedAt: null } as never)
      .where(`id = :id AND status = 'sending' AND date_trunc('milliseconds', claimed_at) IS NOT DISTINCT FROM :claimedAt`, { id, claimedAt })
      .execute();
    return (res.affected ?? 0) > 0;
  }

  /** Requests in `sending` whose claim is older than `leaseMs` (database clock) or absent, oldest first. */
  expiredSending(leaseMs: number, limit: number): Promise<RestockOrderEntity[]> {
    return this.orders
      .createQueryBuilder('r')
      .where(`r.status = 'sending'`)
      .andWhere(`(r.claimed_at IS NULL OR r.claimed_at < now() - make_interval(secs => :secs))`, { secs: leaseMs / 1000 })
      .orderBy('r.claimed_at', 'ASC', 'NULLS FIRST')
      .addOrderBy('r.created_at', 'ASC')
      .limit(limit)
      .getMany();
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
