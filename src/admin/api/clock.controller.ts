import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ok } from '../../common/envelope/envelope';
import { AdvanceClockBody } from './admin.dto';
import { ClockService } from '../clock.service';
import { renderClock } from './clock.view';

/**
 * The service clock (issue 25). Not part of the public contract (no OpenAPI operation, no MCP tool): a staging
 * service with SERVICE_CLOCK=adjustable moves it forward for replays and demos; another staging service answers the
 * advance 404. Mounted in staging only (StagingClockModule).
 */
@ApiExcludeController()
@Controller('ucp/v1/admin/clock')
export class ClockController {
  constructor(private readonly clock: ClockService) {}

  @Get()
  read() {
    return ok({ clock: renderClock(this.clock.read()) });
  }

  @Post('advance')
  @HttpCode(200)
  advance(@Body() body: AdvanceClockBody) {
    return ok({ clock: renderClock(this.clock.advance(body.seconds)) });
  }
}
