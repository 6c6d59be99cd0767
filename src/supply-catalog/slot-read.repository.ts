import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { SlotEntity } from '../inventory/slot.entity';
import { LocationEntity } from '../locations/location.entity';

/** Read-only queries on the synced machine copy (`slots`, `locations`), written by the machines sync. */
@Injectable()
export class SlotReadRepository {
  constructor(
    @InjectRepository(SlotEntity) private readonly slots: Repository<SlotEntity>,
    @InjectRepository(LocationEntity) private readonly locations: Repository<LocationEntity>,
  ) {}

  location(id: string): Promise<LocationEntity | null> {
    return this.locations.findOne({ where: { id } });
  }

  atLocation(namespace: string, locationId: string): Promise<SlotEntity[]> {
    return this.slots.find({ where: { namespace, locationId }, order: { id: 'ASC' } });
  }

  bySkuIds(skuIds: string[], locationId?: string): Promise<SlotEntity[]> {
    if (skuIds.length === 0) return Promise.resolve([]);
    const where = locationId ? { skuId: In(skuIds), locationId } : { skuId: In(skuIds) };
    return this.slots.find({ where, order: { locationId: 'ASC', id: 'ASC' } });
  }

  /**
   * Every distinct (sku, title, barcode) of the synced copy, ordered: the machine side of the alias computation
   * (facts, barcode aliases, name similarity) in one read.
   */
  machineSkuRows(): Promise<{ skuId: string; title: string; barcode: string | null }[]> {
    return this.slots.query(`SELECT DISTINCT sku_id AS "skuId", title, barcode FROM slots ORDER BY 1, 2, 3`);
  }
}
