/** The UCP JSON of roster locations, rendered at the edge (declared types: the response classes). */
import type { ResponseBody } from '../../common/envelope/envelope.responses';
import { toPlus8 } from '../../common/time';
import { encodeIdCursor, type LocationRecord } from '../locations.rules';
import type { LocationPage, LocationRemoval } from '../locations.service';
import type { LocationRemoveResponse, LocationSearchResponse, LocationView } from './locations.responses';

export function renderLocation(l: LocationRecord): LocationView {
  const amenities = Array.isArray(l.context?.amenities) ? (l.context.amenities as string[]) : [];
  return {
    id: l.id,
    name: l.name,
    namespace: l.namespace,
    profile: l.profile ?? {},
    amenities,
    created_at: toPlus8(l.createdAt),
    updated_at: toPlus8(l.updatedAt),
  };
}

export function renderLocationPage(p: LocationPage): ResponseBody<LocationSearchResponse> {
  return {
    locations: p.locations.map(renderLocation),
    pagination: p.nextAfter !== null ? { has_next_page: true, cursor: encodeIdCursor(p.nextAfter) } : { has_next_page: false },
  };
}

export function renderLocationRemoval(r: LocationRemoval): ResponseBody<LocationRemoveResponse> {
  return { removed: r.removed, purged: r.purged };
}
