import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RequiresApprover } from '../../common/auth/requires-approver.decorator';
import { ok } from '../../common/envelope/envelope';
import { killSwitchChangeNeedsApprover } from '../../guards/guard.rules';
import { GuardsService } from '../../guards/guards.service';
import { KillSwitchBody } from './admin.dto';
import { AdminDocs } from './admin.openapi';
import { renderGuards } from './guards.view';

/** the contract (docs/contract/): guard rules and the kill switch at run time; each change is an event. */
@ApiTags('admin')
@Controller('ucp/v1/admin')
export class AdminController {
  constructor(private readonly guards: GuardsService) {}

  @Get('guards')
  @AdminDocs.getGuards
  async getGuards() {
    return ok(renderGuards(await this.guards.state()));
  }

  /** The section 4 document; its shape is checked by the guard rules parser (400 invalid when bad). */
  @Put('guards')
  @RequiresApprover()
  @AdminDocs.putGuards
  async putGuards(@Body() body: unknown) {
    return ok(renderGuards(await this.guards.replaceRules(body)));
  }

  /** Anyone may stop spending; releasing the switch needs the approver when one is configured. */
  @Put('kill-switch')
  @RequiresApprover(killSwitchChangeNeedsApprover)
  @AdminDocs.putKillSwitch
  async putKillSwitch(@Body() body: KillSwitchBody) {
    return ok(renderGuards(await this.guards.setKillSwitch(body.engaged, body.reason)));
  }
}
