/** The OpenAPI description of the route day, visits and route settings. */
import { ApiEndpoint, describeProperty } from '../../common/envelope/api-docs';
import { RecordVisitBody } from './visits.dto';
import { MachineRouteSettingsResponse, RouteSettingsResponse, VisitRecordResponse, VisitsResponse } from './visits.responses';

describeProperty(RecordVisitBody, 'confirm', { type: Boolean, enum: [true], required: true, description: 'The JSON boolean `true`: a person records what the driver put into the machine.' });

const KEYED = { 409: ['idempotency_key_mismatch', 'idempotency_key_in_use'], 503: ['idempotency_unavailable'] };

export const VisitsDocs = {
  today: ApiEndpoint({
    operationId: 'visits_today',
    summary: "Today's route: which machines to visit, in order, and what to bring",
    description:
      'Per stop (machines at one site share it) the margin expected to be lost if it is skipped until its next possible visit, against what the stop costs per day of its best cycle, looking a few days ahead so that a crowded later day is relieved today; stops that pay, best first, up to the drivers\' stops per day. Every visit and every skip carries its reason in words. Picks come only from the warehouse (the depot) and fill each slot to last until its next planned visit; `van` sums today\'s route. Reads the synced copy and the plan; no partner is called and nothing is written.',
    type: VisitsResponse,
    returns: 'The route, the skipped machines, the van list and what the warehouse lacks.',
    errors: {},
  }),
  record: ApiEndpoint({
    operationId: 'visits_record',
    summary: 'Record a visit: what the driver put into each slot, and what came back',
    description:
      'Per slot of one machine, the units loaded from the van (the slot rises and the depot falls, in one transaction; at most the slot\'s room and what the depot holds) and the units brought back (recorded). One `visit.recorded` event. Needs `confirm: true`; an `Idempotency-Key` makes a retry answer the first outcome.',
    headers: ['Idempotency-Key'],
    status: 200,
    type: VisitRecordResponse,
    returns: 'The visit with each slot\'s stock before and after.',
    errors: { 400: ['missing', 'invalid', 'confirmation_required', 'request_too_large'], 404: ['not_found'], 409: ['depot_insufficient', ...KEYED[409]], 503: KEYED[503] },
  }),
  settings: ApiEndpoint({
    operationId: 'visits_settings_get',
    summary: 'Route settings: the defaults and each machine\'s stop cost, visit days and site',
    description: 'The stops the drivers can make a day and a stop\'s cost come from the environment; a machine may have its own stop cost, visit days (+08:00 weekdays) and site (machines of one site share a stop; by default its address).',
    type: RouteSettingsResponse,
    returns: 'The defaults and every machine\'s effective settings.',
    errors: {},
  }),
  putSettings: ApiEndpoint({
    operationId: 'visits_settings_put',
    summary: 'Change a machine\'s route settings',
    description: 'An absent field is kept; `null` returns it to the default. Recorded as a `route.settings` event.',
    type: MachineRouteSettingsResponse,
    returns: 'The machine\'s effective settings.',
    errors: { 400: ['invalid'], 404: ['not_found'] },
  }),
};
