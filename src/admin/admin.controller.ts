import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { ok } from '../common/envelope';
import { GuardsService } from '../guards/guards.service';
import { KillSwitchBody } from './admin.dto';

/** decisions.md section 6: guard rules and the kill switch at run time; each change is an event. */
@ApiTags('admin')
@ApiBearerAuth()
@Controller('ucp/v1/admin')
export class AdminController {
  constructor(private readonly guards: GuardsService) {}

  @Get('guards')
  async getGuards() {
    return ok(await this.guards.view());
  }

  /** The section 4 document; its shape is checked by the guard rules parser (400 invalid when bad). */
  @Put('guards')
  async putGuards(@Body() body: unknown) {
    return ok(await this.guards.replaceRules(body));
  }

  @Put('kill-switch')
  async putKillSwitch(@Body() body: KillSwitchBody) {
    return ok(await this.guards.setKillSwitch(body.engaged, body.reason));
  }
}
