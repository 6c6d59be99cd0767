/** The OpenAPI description of replenishment plans, runs and forecast scores. */
import { applyDecorators } from '@nestjs/common';
import { ApiBody } from '@nestjs/swagger';
import { ApiEndpoint, describeProperty } from '../../common/envelope/api-docs';
import { CancelRunBody, CloseRunBody, DropRefusedLinesBody, ListRunsQuery, PlaceRunBody, ScoreQuery } from './replenishment.dto';
import { PlanResponse } from './plan.responses';
import { RunResponse, RunsListResponse } from './runs.responses';
import { ScoreResponse } from './score.responses';
import { RUN_STATUSES } from '../runs/run.rules';

describeProperty(ListRunsQuery, 'status', { required: false, enum: [...RUN_STATUSES], description: 'Only runs in this status.' });
describeProperty(ScoreQuery, 'horizon_days', { required: false, default: 7 });
describeProperty(PlaceRunBody, 'confirm', {
  type: Boolean,
  enum: [true],
  required: false,
  description: 'Required for a `supply_checkout` run, which completes real purchase orders: the JSON boolean `true` (anything else is 400 `confirmation_required`). Other fulfillers ignore it.',
});

describeProperty(CloseRunBody, 'confirm', { type: Boolean, enum: [true], required: true, description: 'The JSON boolean `true`: a person decided the rest of this run will never arrive.' });

describeProperty(CancelRunBody, 'confirm', { type: Boolean, enum: [true], required: true, description: 'The JSON boolean `true`: a person decided not to place this run.' });
describeProperty(DropRefusedLinesBody, 'confirm', { type: Boolean, enum: [true], required: true, description: 'The JSON boolean `true`: a person decided to place the run without the refused goods.' });

const KEYED = { 409: ['idempotency_key_mismatch', 'idempotency_key_in_use'], 503: ['idempotency_unavailable'] };

export const ReplenishmentDocs = {
  plan: ApiEndpoint({
    operationId: 'replenishment_plan',
    summary: 'What to order now, per slot, with provenance',
    description:
      'Core. A periodic-review, order-up-to plan: per slot the measured or fallback demand (`demand.measured`), the lead time (`lead_time.source`: `measured` or `stated`), safety stock, target and the quantity to order in the fulfiller\'s unit. Costs are estimates. Nothing is ordered.',
    type: PlanResponse,
    returns: 'The plan.',
    errors: { 400: ['invalid', 'namespace_unsupported'], 502: ['upstream_unreachable'] },
  }),
  create: ApiEndpoint({
    operationId: 'replenishment_run_create',
    summary: 'Build a run from the current plan',
    description:
      'Freezes the plan\'s lines into a run (`ready`), or `awaiting_approval` with a pending `replenishment_run` approval when it passes the budget. Nothing is ordered until `place`. `fulfiller=machine_restock` orders from each location\'s machine platform instead of the simulated supplier.',
    status: 201,
    type: RunResponse,
    returns: 'The new run.',
    errors: { 400: ['invalid', 'namespace_unsupported'], 502: ['upstream_unreachable'] },
  }),
  list: ApiEndpoint({
    operationId: 'replenishment_runs_list',
    summary: 'List runs (without their lines)',
    description: 'Newest first, at most 200, with `line_count` instead of lines.',
    type: RunsListResponse,
    returns: 'The runs.',
    errors: { 400: ['invalid'] },
  }),
  get: ApiEndpoint({
    operationId: 'replenishment_run_get',
    summary: 'Read a run with its lines',
    description: 'A run interrupted while `placing` is settled here by reading the fulfiller (never ordering again).',
    type: RunResponse,
    returns: 'The run.',
    errors: { 404: ['not_found'] },
  }),
  place: applyDecorators(
    ApiBody({ type: PlaceRunBody, required: false, description: 'Optional; `{confirm: true}` for a `supply_checkout` run.' }),
    ApiEndpoint({
    operationId: 'replenishment_run_place',
    summary: 'Place a run with its fulfiller (orders goods)',
    description:
      'Orders the run\'s goods from its fulfiller, once, never retried; the budget is held at place. Refused when the kill switch is engaged (409 `kill_switch_engaged`), the run waits for approval (409 `approval_required`), is already placed (409 `already_placed`), is empty (409 `nothing_to_order`), or another run ordered for its slots after it was drafted (409 `run_superseded`, naming that run: create a new run). Send an `Idempotency-Key` to make a retry replay the first answer.',
    headers: ['Idempotency-Key'],
    type: RunResponse,
    returns: 'The run with `status: placed`.',
    errors: {
      400: ['confirmation_required', 'invalid', 'namespace_unsupported'],
      404: ['not_found'],
      409: ['already_placed', 'approval_required', 'invalid_state', 'nothing_to_order', 'run_superseded', 'kill_switch_engaged', 'idempotency_key_mismatch', 'idempotency_key_in_use'],
      502: ['supplier_rejected', 'upstream_unreachable', 'upstream_rejected'],
      503: ['guard_unverifiable', 'idempotency_unavailable'],
    },
    }),
  ),
  receive: ApiEndpoint({
    operationId: 'replenishment_run_receive',
    summary: 'Record a delivery into stock; the run is delivered',
    description:
      'Units (each) that arrived per slot of the run: stock rises (capped at capacity, the rest goes to the depot) and each listed line leaves on-order, a short one with its `shortfall`. Lines not listed are closed with their whole quantity as shortfall (the next plan orders them again). The run is `delivered`. Goods that go to the warehouse first: `arrivals`.',
    type: RunResponse,
    returns: 'The run with `status: delivered`.',
    errors: { 400: ['missing', 'invalid', 'request_too_large'], 404: ['not_found'], 409: ['already_delivered', 'invalid_state'] },
  }),
  arrivals: ApiEndpoint({
    operationId: 'replenishment_run_arrivals',
    summary: 'Record lines of a placed run that arrived at the warehouse',
    description:
      'Per slot line, the units (each) that arrived at the warehouse: they go into the depot under the slot\'s good (a visit puts them into the slot) and the line leaves on-order, a short one with its `shortfall`; at most the line\'s `ordered_each`. The arrival is the supplier\'s lead-time sample (order → arrival). Lines not listed stay on order; the run is `delivered` once every line is closed.',
    headers: ['Idempotency-Key'],
    type: RunResponse,
    returns: 'The run (`placed` while lines are open, then `delivered`).',
    errors: { 400: ['missing', 'invalid', 'request_too_large'], 404: ['not_found'], 409: ['already_delivered', 'invalid_state', ...KEYED[409]], 503: KEYED[503] },
  }),
  close: ApiEndpoint({
    operationId: 'replenishment_run_close',
    summary: 'Close a placed run that will never arrive',
    description: 'Its open lines leave on-order with their units as shortfall, so the next plan orders them again; an event records the reason. Needs `confirm: true`.',
    headers: ['Idempotency-Key'],
    type: RunResponse,
    returns: 'The run with `status: closed`.',
    errors: {
      400: ['missing', 'invalid', 'confirmation_required'],
      404: ['not_found'],
      409: ['already_delivered', 'invalid_state', 'idempotency_key_mismatch', 'idempotency_key_in_use'],
      503: ['idempotency_unavailable'],
    },
  }),
  cancel: ApiEndpoint({
    operationId: 'replenishment_run_cancel',
    summary: 'Cancel a run not placed yet',
    description: 'Its pending approval is withdrawn and nothing is sent. Needs `confirm: true`; a placed run is closed instead.',
    headers: ['Idempotency-Key'],
    type: RunResponse,
    returns: 'The run with `status: cancelled`.',
    errors: { 400: ['invalid', 'confirmation_required'], 404: ['not_found'], 409: ['already_placed', 'invalid_state', ...KEYED[409]], 503: KEYED[503] },
  }),
  dropRefused: ApiEndpoint({
    operationId: 'replenishment_run_drop_refused_lines',
    summary: 'Drop the lines a supplier refused as unavailable',
    description: 'Supply-checkout runs: removes the `item_unavailable` lines of its purchase orders not completed, so place sends the rest. Needs `confirm: true`.',
    headers: ['Idempotency-Key'],
    type: RunResponse,
    returns: 'The run without the refused lines.',
    errors: { 400: ['invalid', 'confirmation_required'], 404: ['not_found'], 409: ['invalid_state', 'nothing_to_order', ...KEYED[409]], 502: ['upstream_unreachable'], 503: KEYED[503] },
  }),
  score: ApiEndpoint({
    operationId: 'replenishment_score',
    summary: 'How good past forecasts were',
    description: 'Scores forecasts older than `horizon_days` against the settled sales that followed (WAPE headline, bias, MASE, MAE).',
    type: ScoreResponse,
    returns: 'The score report.',
    errors: { 400: ['invalid'] },
  }),
};
