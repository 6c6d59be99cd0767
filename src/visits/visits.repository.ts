import { Injectable } from '@nestjs/common';
import { Tx } from '../database/tx';
import { MachineVisitEntity } from './machine-visit.entity';
import { RouteMachineSettingsEntity } from './route-settings.entity';

export interface VisitLocationRow {
  id: string;
  name: string;
  /** The address the roster gives (machines at one address share a stop by default), or null. */
  address: string | null;
}

export interface SlotLabelRow {
  id: string;
  locationId: string;
  /** The platform's slot label, else the product code: what a driver sees on the machine. */
  position: string;
  title: string;
  priceFen: number;
}

/** The route day's reads and writes: the roster, slot labels and prices, route settings, recorded visits. */
@Injectable()
export class VisitsRepository {
  constructor(private readonly tx: Tx) {}

  async locations(): Promise<VisitLocationRow[]> {
    const rows = (await this.tx.manager.query(`SELECT id, name, profile->>'address' AS address FROM locations ORDER BY id`)) as { id: string; name: string; address: string | null }[];
    return rows.map((r) => ({ id: r.id, name: r.name, address: r.address && r.address.trim() ? r.address.trim() : null }));
  }

  async location(id: string): Promise<VisitLocationRow | null> {
    return (await this.locations()).find((l) => l.id === id) ?? null;
  }

  async slotLabels(locationId?: string): Promise<SlotLabelRow[]> {
    const rows = (await this.tx.manager.query(
      `SELECT id, location_id, COALESCE(NULLIF(partner_slot_id, ''), vendor_sku) AS position, title, price_fen FROM slots WHERE $1::text IS NULL OR location_id = $1 ORDER BY id`,
      [locationId ?? null],
    )) as { id: string; location_id: string; position: string; title: string; price_fen: string | number }[];
    return rows.map((r) => ({ id: r.id, locationId: r.location_id, position: r.position, title: r.title, priceFen: Number(r.price_fen) }));
  }

  async slotStocks(ids: string[]): Promise<{ id: string; stock: number }[]> {
    return (await this.tx.manager.query(`SELECT id, stock FROM slots WHERE id = ANY($1::text[])`, [ids])) as { id: string; stock: number }[];
  }

  async settings(): Promise<RouteMachineSettingsEntity[]> {
    return this.tx.manager.getRepository(RouteMachineSettingsEntity).find({ order: { locationId: 'ASC' } });
  }

  async saveSettings(row: Pick<RouteMachineSettingsEntity, 'locationId' | 'stopCostFen' | 'visitDays' | 'site'>): Promise<void> {
    await this.tx.manager.getRepository(RouteMachineSettingsEntity).upsert({ ...row, updatedAt: new Date() }, ['locationId']);
  }

  async insertVisit(v: MachineVisitEntity): Promise<void> {
    await this.tx.manager.getRepository(MachineVisitEntity).insert(v);
  }
}
