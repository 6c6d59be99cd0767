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

  /** Distinct machine skus carrying one of these barcodes. */
  async skusByBarcodes(barcodes: string[]): Promise<{ skuId: string; barcode: string }[]> {
    if (barcodes.length === 0) return [];
    return this.slots.query(`SELECT DISTINCT sku_id AS "skuId", barcode FROM slots WHERE barcode = ANY($1::text[])`, [barcodes]);
  }

  /** One title per machine sku (for name-similarity suggestions). */
  machineTitles(): Promise<{ skuId: string; title: string }[]> {
    return this.slots.query(`SELECT sku_id AS "skuId", MIN(title) AS title FROM slots GROUP BY sku_id`);
  }

  /** Barcodes and a title per machine sku. */
  async machineFacts(skuIds: string[]): Promise<{ skuId: string; title: string; barcode: string | null }[]> {
    if (skuIds.length === 0) return [];
    return this.slots.query(`SELECT DISTINCT sku_id AS "skuId", title, barcode FROM slots WHERE sku_id = ANY($1::text[]) ORDER BY 1, 2`, [skuIds]);
  }
}
