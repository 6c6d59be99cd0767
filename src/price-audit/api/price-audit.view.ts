/** The UCP JSON of price audit flags, rendered at the edge (declared type: the response class). */
import { cny } from '../../common/money';
import { toPlus8 } from '../../common/time';
import type { PriceAuditFlag } from '../price-audit.repository';
import type { PriceAuditFlagView } from './price-audit.responses';

export function renderPriceAuditFlag(f: PriceAuditFlag): PriceAuditFlagView {
  return {
    slot_id: f.slotId,
    location: f.locationId,
    item: { id: f.itemId },
    title: f.title,
    machine_price: cny(f.machineFen),
    service_price: cny(f.serviceFen),
    flagged_at: toPlus8(f.flaggedAt),
  };
}
