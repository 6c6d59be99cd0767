/** The JSON of the service clock, rendered at the edge (its declared type is the response class). */
import { toPlus8 } from '../../common/time';
import type { ServiceClock } from '../clock.service';
import type { ClockView } from './clock.responses';

export function renderClock(c: ServiceClock): ClockView {
  return { now: toPlus8(c.now), adjustable: c.adjustable, offset_seconds: c.offsetSeconds };
}
