import { DomainError } from '../common/errors/errors';
import { CatalogSnapshot, SupplyCatalogService } from './supply-catalog.service';

export type CatalogRead = { ok: true; snapshot: CatalogSnapshot } | { ok: false; error: DomainError };

/**
 * The supplier catalogs one request reads, each fetched (or taken from the cache) at most once per request, with
 * failures kept as values so that one unreachable catalog does not hide what the others answer.
 */
export class CatalogReads {
  private readonly reads = new Map<string, Promise<CatalogRead>>();
  constructor(private readonly catalogs: SupplyCatalogService) {}

  get(namespace: string): Promise<CatalogRead> {
    let r = this.reads.get(namespace);
    if (!r) {
      r = this.catalogs.snapshot(namespace).then(
        (snapshot): CatalogRead => ({ ok: true, snapshot }),
        (e: unknown): CatalogRead => ({ ok: false, error: e instanceof DomainError ? e : new DomainError('upstream_unreachable', String(e), { severity: 'unrecoverable' }) }),
      );
      this.reads.set(namespace, r);
    }
    return r;
  }
}
