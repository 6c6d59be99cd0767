import { Injectable } from '@nestjs/common';
import { Tx } from '../database/tx';
import type { Flag, Mismatch } from './price-audit.rules';

/**
 * The prices the service set or approved are its own `price.changed` events (each change's `price_fen`, newest per
 * machine and product); the machine's are the synced slots. Queries only.
 */
/** A slot whose machine price differs from the service's: the flag as listed. */
export type PriceAuditFlag = Omit<Mismatch, 'setAt'> & { flaggedAt: Date };

@Injectable()
export class PriceAuditRepository {
  constructor(private readonly tx: Tx) {}

  async mismatches(locations: string[]): Promise<Mismatch[]> {
    const rows = (await this.tx.manager.query(
      `WITH set_prices AS (
         SELECT DISTINCT ON (e.location, c->>'item') e.location AS location_id, c->>'item' AS item_id, (c->>'price_fen')::bigint AS service_fen, e.occurred_at
           FROM events e CROSS JOIN LATERAL jsonb_array_elements(COALESCE(e.data->'changes', '[]'::jsonb)) c
          WHERE e.kind = 'price.changed' AND e.source = 'service' AND e.location = ANY($1::text[]) AND c ? 'price_fen'
          ORDER BY e.location, c->>'item', e.seq DESC)
       SELECT s.id, s.location_id, s.sku_id, s.title, s.price_fen, p.service_fen, p.occurred_at
         FROM slots s JOIN set_prices p ON p.location_id = s.location_id AND p.item_id = s.sku_id
        WHERE s.price_fen <> p.service_fen AND NOT s.price_locked
        ORDER BY s.location_id, s.id`,
      [locations],
    )) as { id: string; location_id: string; sku_id: string; title: string; price_fen: string; service_fen: string; occurred_at: string | Date }[];
    return rows.map((r) => ({
      slotId: r.id,
      locationId: r.location_id,
      itemId: r.sku_id,
      title: r.title,
      machineFen: Number(r.price_fen),
      serviceFen: Number(r.service_fen),
      setAt: new Date(r.occurred_at),
    }));
  }

  async flags(locations: string[]): Promise<Flag[]> {
    const rows = (await this.tx.manager.query(`SELECT slot_id, machine_fen, service_fen FROM price_audit_flags WHERE location_id = ANY($1::text[])`, [locations])) as {
      slot_id: string;
      machine_fen: string;
      service_fen: string;
    }[];
    return rows.map((r) => ({ slotId: r.slot_id, machineFen: Number(r.machine_fen), serviceFen: Number(r.service_fen) }));
  }

  async raise(m: Mismatch): Promise<void> {
    await this.tx.manager.query(
      `INSERT INTO price_audit_flags (slot_id, location_id, machine_fen, service_fen, flagged_at) VALUES ($1, $2, $3, $4, now())
       ON CONFLICT (slot_id) DO UPDATE SET machine_fen = EXCLUDED.machine_fen, service_fen = EXCLUDED.service_fen, flagged_at = now()`,
      [m.slotId, m.locationId, m.machineFen, m.serviceFen],
    );
  }

  async clear(slotIds: string[]): Promise<void> {
    if (slotIds.length) await this.tx.manager.query(`DELETE FROM price_audit_flags WHERE slot_id = ANY($1::text[])`, [slotIds]);
  }

  /** The flags standing, with the slot's product, newest first. */
  async list(location?: string): Promise<PriceAuditFlag[]> {
    const rows = (await this.tx.manager.query(
      `SELECT f.slot_id, f.location_id, s.sku_id, s.title, f.machine_fen, f.service_fen, f.flagged_at
         FROM price_audit_flags f JOIN slots s ON s.id = f.slot_id
        WHERE ($1::text IS NULL OR f.location_id = $1::text)
        ORDER BY f.flagged_at DESC, f.slot_id LIMIT 500`,
      [location ?? null],
    )) as { slot_id: string; location_id: string; sku_id: string; title: string; machine_fen: string; service_fen: string; flagged_at: string | Date }[];
    return rows.map((r) => ({
      slotId: r.slot_id,
      locationId: r.location_id,
      itemId: r.sku_id,
      title: r.title,
      machineFen: Number(r.machine_fen),
      serviceFen: Number(r.service_fen),
      flaggedAt: new Date(r.flagged_at),
    }));
  }
}
