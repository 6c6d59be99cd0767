/** Response models of locations and sync (OpenAPI only; see common/envelope.responses.ts). */
import { DateTime, FreeObject, Int } from '../../common/envelope/api-docs';
import { PaginationView, UcpEnvelope } from '../../common/envelope/envelope.responses';

export class LocationView {
  /** Machine id, `^[A-Za-z0-9._-]{1,64}$`. */
  id: string;
  name: string;
  /** The machine namespace this location belongs to. */
  namespace: string;
  @FreeObject({ description: 'city, address, placement, venueType, floor, spot (strings up to 200 characters, numbers or null).' })
  profile: Record<string, unknown>;
  amenities: string[];
  @DateTime()
  created_at: string;
  @DateTime()
  updated_at: string;
}

export class LocationSearchResponse extends UcpEnvelope {
  locations: LocationView[];
  pagination: PaginationView;
}

export class LocationPutResponse extends UcpEnvelope {
  location: LocationView;
}

export class PurgedCountsView {
  @Int({ minimum: 0 })
  profile: number;
  @Int({ minimum: 0 })
  context: number;
  @Int({ minimum: 0 })
  telemetry: number;
}

export class LocationRemoveResponse extends UcpEnvelope {
  /** The removed location id. */
  removed: string;
  purged: PurgedCountsView;
}

export class SyncResponse extends UcpEnvelope {
  @Int({ minimum: 0, description: 'Locations read.' })
  locations: number;
  @Int({ minimum: 0, description: 'Distinct products seen.' })
  products: number;
  @Int({ minimum: 0, description: 'Slots written.' })
  slots: number;
  @Int({ minimum: 0, description: 'Sale orders read from the ledger.' })
  sales: number;
}
