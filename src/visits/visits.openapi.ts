/** The OpenAPI description of the visits. */
import { ApiEndpoint } from '../common/api-docs';
import { VisitsResponse } from './visits.responses';

export const VisitsDocs = {
  today: ApiEndpoint({
    operationId: 'visits_today',
    summary: 'Which machines need a visit today, and what to bring',
    description:
      'Every machine ranked by the visit rule (sold-out slots, days of cover per slot = stock over the measured demand rate, fill, days since the last delivery, data freshness), those needing a visit first. Each machine carries the rule\'s inputs, its reasons in words, its pick list (units per slot and where they come from: an open run, or nothing yet) and a pre-kit total per product; `van` sums the pre-kit over the machines to visit. Reads the synced copy and the plan; no partner is called and nothing is written.',
    type: VisitsResponse,
    returns: 'The ranked machines, the rule and the van total.',
    errors: {},
  }),
};
