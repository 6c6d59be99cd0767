import { Injectable } from '@nestjs/common';
import { Errors } from '../common/errors/errors';
import { EventsService } from '../events/events.service';
import { PartnerRegistry } from '../partners/registry/partner-registry';
import { failureReason, partnerFailure } from '../partners/partner-failure';
import type { InventoryItemInput, RefusedInput } from './inventory.rules';

/** A machine's shelves as the platform answered them, at `readAt`: the items it gave and the records it refused. */
export interface LiveInventory {
  locationId: string;
  namespace: string;
  readAt: Date;
  items: InventoryItemInput[];
  refused: RefusedInput[];
}

/**
 * The live read of a machine's shelves (spec `GET /locations/{id}/inventory`): straight from the platform, never
 * cached, never written to the synced copy, read-only (the kill switch does not apply).
 */
@Injectable()
export class LiveInventoryService {
  constructor(
    private readonly registry: PartnerRegistry,
    private readonly events: EventsService,
  ) {}

  async read(location: { id: string; namespace: string }): Promise<LiveInventory> {
    const adapter = this.registry.machine(location.namespace, 'inventory');
    let answer: Awaited<ReturnType<typeof adapter.getInventory>>;
    try {
      answer = await adapter.getInventory(location.id);
    } catch (err) {
      await this.events.record({
        kind: 'partner.error',
        summary: `live inventory of ${location.id} could not be read from ${location.namespace}`,
        reasoning: failureReason(err),
        location: location.id,
        data: { namespace: location.namespace, operation: 'inventory' },
      });
      // The platform answered that it does not know this location (contract: an unknown locationId is a 4xx, here 404):
      // the location is registered here but not there, which the operator fixes; not a failure of the platform.
      throw partnerFailure(err, {
        who: `machine platform ${location.namespace}`,
        refused: (e) =>
          e.httpStatus === 404
            ? Errors.notFound(`location ${location.id} at the machine platform ${location.namespace} (it is registered here but the platform does not know it)`, '$.id')
            : undefined,
      });
    }
    return { locationId: location.id, namespace: location.namespace, readAt: new Date(), items: answer.items, refused: answer.rejected };
  }
}
