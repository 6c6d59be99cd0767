import { Injectable } from '@nestjs/common';
import { queryReturning } from '../database/returning';
import { Tx } from '../database/tx';
import { LocationRecord } from './locations.rules';

interface RawLocation {
  id: string;
  namespace: string;
  name: string;
  profile: Record<string, unknown>;
  context: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

const fromRaw = (r: RawLocation): LocationRecord => ({
  id: r.id,
  namespace: r.namespace,
  name: r.name,
  profile: r.profile ?? {},
  context: r.context ?? {},
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

/** The roster (`locations`). Queries only. */
@Injectable()
export class LocationsRepository {
  constructor(private readonly tx: Tx) {}

  /** Registers or updates; `profile` null keeps the stored profile, `amenities` null keeps the stored ones. */
  async upsert(l: {
    id: string;
    namespace: string;
    name: string;
    profile: Record<string, unknown> | null;
    amenities: string[] | null;
  }): Promise<{ location: LocationRecord; created: boolean }> {
    const context = l.amenities === null ? {} : { amenities: l.amenities };
    const rows = (await this.tx.manager.query(
      `INSERT INTO locations AS l (id, namespace, name, profile, context)
       VALUES ($1, $2, $3, COALESCE($4::jsonb, '{}'::jsonb), $5::jsonb)
       ON CONFLICT (id) DO UPDATE SET
         namespace = EXCLUDED.namespace, name = EXCLUDED.name,
         profile = COALESCE($4::jsonb, l.profile),
         context = CASE WHEN $6::boolean THEN l.context || EXCLUDED.context ELSE l.context END,
         updated_at = now()
       RETURNING l.*, (xmax = 0) AS created`,
      [l.id, l.namespace, l.name, l.profile === null ? null : JSON.stringify(l.profile), JSON.stringify(context), l.amenities !== null],
    )) as (RawLocation & { created: boolean })[];
    return { location: fromRaw(rows[0]), created: rows[0].created };
  }

  async find(id: string): Promise<LocationRecord | null> {
    const rows = (await this.tx.manager.query(`SELECT * FROM locations WHERE id = $1`, [id])) as RawLocation[];
    return rows.length ? fromRaw(rows[0]) : null;
  }

  /** Locks and deletes the roster row; returns what it held. */
  async deleteReturning(id: string): Promise<LocationRecord | null> {
    const [row] = await queryReturning<RawLocation>(this.tx.manager, `DELETE FROM locations WHERE id = $1 RETURNING *`, [id]);
    return row ? fromRaw(row) : null;
  }

  /** Every registered location, optionally of one namespace, by id. */
  async all(namespace?: string): Promise<LocationRecord[]> {
    const rows = (await (namespace === undefined
      ? this.tx.manager.query(`SELECT * FROM locations ORDER BY id`)
      : this.tx.manager.query(`SELECT * FROM locations WHERE namespace = $1 ORDER BY id`, [namespace]))) as RawLocation[];
    return rows.map(fromRaw);
  }

  async names(ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = (await this.tx.manager.query(`SELECT id, name FROM locations WHERE id = ANY($1::text[])`, [ids])) as { id: string; name: string }[];
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  /**
   * Search: `pattern` (an ILIKE pattern) over the name and the profile values; machines carrying every one of
   * `skuIds` (a synced slot of that id); context amenities containing every one of `amenities`; keyset on id.
   */
  async search(q: { pattern?: string; skuIds?: string[]; amenities?: string[]; afterId?: string; limit: number }): Promise<LocationRecord[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    const p = (v: unknown) => {
      params.push(v);
      return `$${params.length}`;
    };
    if (q.pattern !== undefined) {
      const pat = p(q.pattern);
      where.push(`(l.name ILIKE ${pat} OR EXISTS (SELECT 1 FROM jsonb_each_text(l.profile) e WHERE e.value ILIKE ${pat}))`);
    }
    if (q.skuIds?.length) {
      const ids = p([...new Set(q.skuIds)]);
      where.push(`(SELECT count(DISTINCT s.sku_id) FROM slots s WHERE s.location_id = l.id AND s.sku_id = ANY(${ids}::text[])) = cardinality(${ids}::text[])`);
    }
    if (q.amenities?.length) {
      where.push(`COALESCE(l.context->'amenities', '[]'::jsonb) @> ${p(JSON.stringify(q.amenities))}::jsonb`);
    }
    if (q.afterId !== undefined) where.push(`l.id > ${p(q.afterId)}`);
    const sql = `SELECT l.* FROM locations l${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY l.id LIMIT ${p(q.limit)}`;
    return ((await this.tx.manager.query(sql, params)) as RawLocation[]).map(fromRaw);
  }
}
