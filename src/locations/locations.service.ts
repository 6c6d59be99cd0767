import { Injectable } from '@nestjs/common';
import { Errors } from '../common/errors/errors';
import { parseRfc3339 } from '../common/time';
import { Tx } from '../database/tx';
import { EventsService } from '../events/events.service';
import { requireLocationId, requireNamespace } from '../identifiers/identifiers';
import { LiveInventory, LiveInventoryService } from '../inventory/inventory.service';
import { SlotsRepository } from '../inventory/slots.repository';
import { PartnerRegistry } from '../partners/registry/partner-registry';
import { LocationsRepository } from './locations.repository';
import { decodeIdCursor, likePattern, LocationRecord, purgeCounts, SEARCH_DEFAULT_LIMIT, validateProfile } from './locations.rules';

/** A page of a roster search (location.view.ts renders it). */
export interface LocationPage {
  locations: LocationRecord[];
  /** The last location's id when another page follows. */
  nextAfter: string | null;
}

/** What a roster removal purged. */
export interface LocationRemoval {
  removed: string;
  purged: { profile: number; context: number; telemetry: number };
}

/** A location as written by PUT, as the edge validated it (api/locations.dto.ts). */
export interface LocationInput {
  name: string;
  profile?: Record<string, unknown>;
  namespace?: string;
  amenities?: string[];
}

/** A location search, as the edge validated it (api/locations.dto.ts). */
export interface LocationSearch {
  query?: string;
  filters?: { items?: { id: string }[]; amenities?: string[]; hours?: { open_at?: string } };
  pagination?: { cursor?: string; limit?: number };
}

/** The roster: register, update, remove, search; and the live inventory read of a registered machine. */
@Injectable()
export class LocationsService {
  constructor(
    private readonly tx: Tx,
    private readonly repo: LocationsRepository,
    private readonly slots: SlotsRepository,
    private readonly registry: PartnerRegistry,
    private readonly liveInventory: LiveInventoryService,
    private readonly events: EventsService,
  ) {}

  async put(rawId: string, body: LocationInput): Promise<{ location: LocationRecord; created: boolean }> {
    const id = requireLocationId(rawId, '$.id');
    const profile = body.profile === undefined ? null : validateProfile(body.profile);
    let namespace: string;
    if (body.namespace !== undefined) {
      namespace = requireNamespace(body.namespace, '$.namespace').namespace;
    } else {
      const def = this.registry.defaults().machine;
      if (!def) throw Errors.namespaceUnsupported('(default machine)', 'no machine namespace is configured', '$.namespace');
      namespace = def;
    }
    this.registry.usable(namespace, 'machine', undefined, '$.namespace');
    const { location, created } = await this.repo.upsert({ id, namespace, name: body.name, profile, amenities: body.amenities ?? null });
    return { location, created };
  }

  /** Roster removal: the profile, context and telemetry (synced slots) are purged; events are kept. */
  async remove(rawId: string): Promise<LocationRemoval> {
    const id = requireLocationId(rawId, '$.id');
    const purged = await this.tx.run(async () => {
      const gone = await this.repo.deleteReturning(id);
      if (!gone) return null;
      const telemetry = await this.slots.deleteForLocation(id);
      const counts = purgeCounts(gone.profile, gone.context, telemetry);
      await this.events.record({
        kind: 'location.removed',
        summary: `machine ${id} removed from the roster`,
        reasoning: `profile (${counts.profile} fields), context (${counts.context} entries) and telemetry (${counts.telemetry} synced slots) purged; events kept`,
        location: id,
        data: { purged: counts },
      });
      return counts;
    });
    if (!purged) throw Errors.notFound(`location ${id}`, '$.id');
    return { removed: id, purged };
  }

  async search(body: LocationSearch): Promise<LocationPage> {
    const openAt = body.filters?.hours?.open_at;
    if (openAt !== undefined && !parseRfc3339(openAt)) {
      throw Errors.invalid('$.filters.hours.open_at', '$.filters.hours.open_at must be an RFC 3339 date-time');
    }
    let afterId: string | undefined;
    if (body.pagination?.cursor !== undefined) {
      const decoded = decodeIdCursor(body.pagination.cursor);
      if (!decoded) throw Errors.invalid('$.pagination.cursor', '$.pagination.cursor is not a cursor this service issued');
      afterId = decoded;
    }
    const limit = body.pagination?.limit ?? SEARCH_DEFAULT_LIMIT;
    const query = body.query?.trim();
    const rows = await this.repo.search({
      pattern: query ? likePattern(query) : undefined,
      skuIds: body.filters?.items?.map((i) => i.id),
      amenities: body.filters?.amenities,
      afterId,
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    const more = rows.length > limit;
    return { locations: page, nextAfter: more ? page[page.length - 1].id : null };
  }

  async inventory(rawId: string): Promise<LiveInventory> {
    const id = requireLocationId(rawId, '$.id');
    const location = await this.repo.find(id);
    if (!location) throw Errors.notFound(`location ${id}`, '$.id');
    return this.liveInventory.read(location);
  }
}
