import { Injectable } from '@nestjs/common';
import { In, Repository } from 'typeorm';
import { Tx } from '../database/tx';
import { SlotEntity } from '../inventory/slot.entity';

/** The price columns of the synced slot copy (`price_fen`, `price_locked`) that price changes read and write. Queries only. */
@Injectable()
export class PriceSlotsRepository {
  constructor(private readonly tx: Tx) {}

  /** The slots of the current transaction (Tx), or outside one, the plain manager. */
  private repo(): Repository<SlotEntity> {
    return this.tx.manager.getRepository(SlotEntity);
  }

  find(ids: string[]): Promise<SlotEntity[]> {
    return this.repo().find({ where: { id: In(ids) } });
  }

  /** The new price; the day's reference is written with it when the move set it (the first change of the day). */
  async setPrice(id: string, priceFen: number, reference?: StoredReference): Promise<void> {
    await this.repo().update({ id }, { priceFen, ...(reference ? referenceColumns(reference) : {}) });
  }

  /** Parks the slot's price behind an approval: a sync keeps the slot, no other change is made to its price. */
  async lock(id: string): Promise<void> {
    await this.repo().update({ id }, { priceLocked: true });
  }

  /** Ends the approval: the approved price when it was made, else the price stays as it was. */
  async unlock(id: string, priceFen?: number, reference?: StoredReference): Promise<void> {
    await this.repo().update({ id }, priceFen === undefined ? { priceLocked: false } : { priceFen, priceLocked: false, ...(reference ? referenceColumns(reference) : {}) });
  }
}

/** A reference price to store with a price (price-reference.rules.ts). */
export interface StoredReference {
  fen: number;
  at: Date;
  source: 'day_start' | 'approved';
}

function referenceColumns(r: StoredReference) {
  return { priceReferenceFen: r.fen, priceReferenceAt: r.at, priceReferenceSource: r.source };
}
