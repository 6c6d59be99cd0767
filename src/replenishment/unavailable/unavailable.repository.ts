import { Injectable } from '@nestjs/common';
import { Tx } from '../../database/tx';
import { SupplyUnavailableEntity } from './supply-unavailable.entity';

/** Marks of goods refused as unavailable. Queries only. */
@Injectable()
export class UnavailableRepository {
  constructor(private readonly tx: Tx) {}

  /** Every mark, keyed `namespace\u0000vendorSku` (a handful: one per refused good). */
  async all(): Promise<Map<string, Date>> {
    const rows = await this.tx.manager.getRepository(SupplyUnavailableEntity).find();
    return new Map(rows.map((r) => [markKey(r.namespace, r.vendorSku), new Date(r.markedAt)]));
  }

  /** Marks (or marks again, from now) a supplier's good. */
  async mark(namespace: string, vendorSku: string, reason: string, runId: string | null): Promise<void> {
    await this.tx.manager.query(
      `INSERT INTO supply_unavailable (namespace, vendor_sku, marked_at, reason, run_id) VALUES ($1, $2, now(), $3, $4)
       ON CONFLICT (namespace, vendor_sku) DO UPDATE SET marked_at = now(), reason = EXCLUDED.reason, run_id = EXCLUDED.run_id`,
      [namespace, vendorSku, reason, runId],
    );
  }
}

export const markKey = (namespace: string, vendorSku: string) => `${namespace}\u0000${vendorSku}`;
