/** The JSON of `POST /locations/sync`, rendered at the edge from the summary (its declared type is the response class). */
import type { ResponseBody } from '../../common/envelope/envelope.responses';
import type { SyncResponse } from '../../locations/api/locations.responses';
import type { SyncSummary } from '../sync.service';

export function renderSyncSummary(s: SyncSummary): ResponseBody<SyncResponse> {
  return { locations: s.locations, products: s.products, slots: s.slots, sales: s.sales };
}
