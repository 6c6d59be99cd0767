import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { Tx } from '../database/tx';
import { LocationEntity } from '../locations/location.entity';
import { RestockOrderEntity } from './restock-order.entity';
import { RESTOCK_MACHINE, RestockStatus } from './restock.rules';

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

  /** Claims (namespace, reference) with status `sending`; null when the reference is already taken. */
  async claim(row: Pick<RestockOrderEntity, 'namespace' | 'reference' | 'locationId' | 'binding' | 'lines' | 'fingerprint'>): Promise<RestockOrderEntity | null> {
    const res = (await this.orders
      .createQueryBuilder()
      .insert()
      .values({ ...row, status: 'sending' satisfies RestockStatus })
      .orIgnore()
      .returning('*')
      .execute()) as { raw: unknown[] };
    if (res.raw.length === 0) return null;
    return this.find(row.namespace, row.reference);
  }

  /** Moves a failed request back to `sending` for a manual resend; false when another caller took it. */
  async reclaimFailed(id: string): Promise<boolean> {
    const res = await this.orders.update({ id, status: 'failed' }, { status: RESTOCK_MACHINE.move('failed', 'sending') });
    return (res.affected ?? 0) > 0;
  }

  /** Settles a request left in `sending` (its sender died); false when it is no longer `sending`. */
  async settleSending(id: string, to: RestockStatus, patch: Partial<RestockOrderEntity> = {}): Promise<boolean> {
    const res = await this.orders.update({ id, status: 'sending' }, { ...patch, status: RESTOCK_MACHINE.move('sending', to) } as never);
    return (res.affected ?? 0) > 0;
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
