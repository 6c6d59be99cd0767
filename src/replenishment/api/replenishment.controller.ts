import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ok } from '../../common/envelope/envelope';
import { ScoringService } from '../../forecasting/scoring.service';
import { IdempotencyService } from '../../idempotency/idempotency.service';
import { replyOnce } from '../../idempotency/idempotent-reply';
import { rawBodyOf } from '../../idempotency/raw-body';
import { PlanService } from '../plan/plan.service';
import { renderPlan } from './plan.view';
import { ArrivalsBody, CancelRunBody, CloseRunBody, CreateRunQuery, DropRefusedLinesBody, ListRunsQuery, PlaceRunBody, PlanQuery, ReceiveBody, ScoreQuery } from './replenishment.dto';
import { RunPlacingService } from '../runs/placement/run-placing.service';
import { RunDeliveryService } from '../runs/delivery/run-delivery.service';
import { renderRun, renderRunSummary, REPLENISHMENT_CAPS } from './run.view';
import { RunsService } from '../runs/runs.service';
import { ReplenishmentDocs } from './replenishment.openapi';
import { RunRepairService } from '../runs/placement/run-repair.service';
import { renderScore } from './score.view';

const CAPS = REPLENISHMENT_CAPS;

@ApiTags('replenishment')
@Controller('ucp/v1/replenishment')
export class ReplenishmentController {
  constructor(
    private readonly plans: PlanService,
    private readonly runs: RunsService,
    private readonly placing: RunPlacingService,
    private readonly delivery: RunDeliveryService,
    private readonly repair: RunRepairService,
    private readonly scoring: ScoringService,
    private readonly idempotency: IdempotencyService,
  ) {}

  @Get('plan')
  @ReplenishmentDocs.plan
  async plan(@Query() q: PlanQuery) {
    return ok(renderPlan(await this.plans.computeAndRecord({ location: q.location, fulfiller: q.fulfiller })), { capabilities: CAPS });
  }

  @Post('runs')
  @HttpCode(201)
  @ReplenishmentDocs.create
  async create(@Query() q: CreateRunQuery) {
    const { detail, messages } = await this.runs.create({ fulfiller: q.fulfiller, location: q.location });
    return ok(renderRun(detail, messages), { capabilities: CAPS });
  }

  @Get('runs')
  @ReplenishmentDocs.list
  async list(@Query() q: ListRunsQuery) {
    return ok({ runs: (await this.runs.list(q.status)).map(renderRunSummary) }, { capabilities: CAPS });
  }

  @Get('runs/:id')
  @ReplenishmentDocs.get
  async get(@Param('id') id: string) {
    return ok(renderRun(await this.runs.get(id)), { capabilities: CAPS });
  }

  @Post('runs/:id/place')
  @HttpCode(200)
  @ReplenishmentDocs.place
  async place(@Param('id') id: string, @Body() body: PlaceRunBody, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    // The body is optional: without one the key's fingerprint is that of `{}`.
    const raw = rawBodyOf(req) || '{}';
    return replyOnce(this.idempotency, req, res, { operation: 'replenishment.run.place', resourceId: id, rawBody: raw }, async (attempt) =>
      ok(renderRun(await this.placing.place(id, body?.confirm, attempt)), { capabilities: CAPS }),
    );
  }

  @Post('runs/:id/receive')
  @HttpCode(200)
  @ReplenishmentDocs.receive
  async receive(@Param('id') id: string, @Body() body: ReceiveBody) {
    const { detail, messages } = await this.delivery.receive(id, body.delivered, body.note);
    return ok(renderRun(detail, messages), { capabilities: CAPS });
  }

  @Post('runs/:id/arrivals')
  @HttpCode(200)
  @ReplenishmentDocs.arrivals
  async arrivals(@Param('id') id: string, @Body() body: ArrivalsBody, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    return replyOnce(this.idempotency, req, res, { operation: 'replenishment.run.arrivals', resourceId: id }, async () =>
      ok(renderRun(await this.delivery.arrive(id, body.arrived, body.note)), { capabilities: CAPS }),
    );
  }

  @Post('runs/:id/close')
  @HttpCode(200)
  @ReplenishmentDocs.close
  async close(@Param('id') id: string, @Body() body: CloseRunBody, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    return replyOnce(this.idempotency, req, res, { operation: 'replenishment.run.close', resourceId: id }, async () =>
      ok(renderRun(await this.delivery.close(id, body.reason, body.confirm)), { capabilities: CAPS }),
    );
  }

  @Post('runs/:id/cancel')
  @HttpCode(200)
  @ReplenishmentDocs.cancel
  async cancel(@Param('id') id: string, @Body() body: CancelRunBody, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    return replyOnce(this.idempotency, req, res, { operation: 'replenishment.run.cancel', resourceId: id }, async () =>
      ok(renderRun(await this.repair.cancel(id, body.reason, body.confirm)), { capabilities: CAPS }),
    );
  }

  @Post('runs/:id/drop-refused-lines')
  @HttpCode(200)
  @ReplenishmentDocs.dropRefused
  async dropRefused(@Param('id') id: string, @Body() body: DropRefusedLinesBody, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    return replyOnce(this.idempotency, req, res, { operation: 'replenishment.run.drop_refused', resourceId: id }, async () =>
      ok(renderRun(await this.repair.dropRefused(id, body.confirm)), { capabilities: CAPS }),
    );
  }

  @Get('score')
  @ReplenishmentDocs.score
  async score(@Query() q: ScoreQuery) {
    return ok(renderScore(await this.scoring.score(q.horizon_days ?? 7)), { capabilities: CAPS });
  }
}
