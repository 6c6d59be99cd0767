/** The JSON of `POST /locations/{id}/restock`, rendered at the edge from the answer (its declared type is the response class). */
import type { ResponseBody } from '../../common/envelope/envelope.responses';
import type { RestockAnswer } from '../restock.service';
import type { RestockResponse } from './restock.responses';

export function renderRestock(a: RestockAnswer): ResponseBody<RestockResponse> {
  const v: ResponseBody<RestockResponse> = { location: a.locationId, reference: a.reference, binding: a.binding, accepted: a.accepted };
  if (a.externalRef) v.external_ref = a.externalRef;
  return v;
}
