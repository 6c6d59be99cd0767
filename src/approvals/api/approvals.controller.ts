import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Caller } from '../../common/auth/credential';
import { AcceptsChatCredential, RequestCaller, RequiresApprover } from '../../common/auth/requires-approver.decorator';
import { ok } from '../../common/envelope/envelope';
import { resolutionNeedsApprover } from '../approval.rules';
import { ListApprovalsQuery, ResolveApprovalBody, WithdrawApprovalBody } from './approvals.dto';
import { ApprovalsService } from '../approvals.service';
import { renderApproval } from './approval.view';
import { ApprovalsDocs } from './approvals.openapi';

const CAPS = ['com.example.svc.approval'];

@ApiTags('approvals')
@Controller('ucp/v1/approvals')
export class ApprovalsController {
  constructor(private readonly approvals: ApprovalsService) {}

  @Get()
  @AcceptsChatCredential()
  @ApprovalsDocs.list
  async list(@Query() q: ListApprovalsQuery, @RequestCaller() caller: Caller) {
    return ok({ approvals: (await this.approvals.list(q, caller)).map(renderApproval) }, { capabilities: CAPS });
  }

  @Get(':id')
  @AcceptsChatCredential()
  @ApprovalsDocs.get
  async get(@Param('id') id: string, @RequestCaller() caller: Caller) {
    return ok({ approval: renderApproval(await this.approvals.get(id, caller)) }, { capabilities: CAPS });
  }

  @Post(':id')
  @HttpCode(200)
  @AcceptsChatCredential()
  @RequiresApprover(resolutionNeedsApprover)
  @ApprovalsDocs.resolve
  async resolve(@Param('id') id: string, @Body() body: ResolveApprovalBody, @RequestCaller() caller: Caller) {
    return ok({ approval: renderApproval(await this.approvals.resolve(id, body.approved, body.resolver, caller)) }, { capabilities: CAPS });
  }

  @Post(':id/withdraw')
  @HttpCode(200)
  @ApprovalsDocs.withdraw
  async withdraw(@Param('id') id: string, @Body() body: WithdrawApprovalBody, @RequestCaller() caller: Caller) {
    return ok({ approval: renderApproval(await this.approvals.withdraw(id, body.reason, caller)) }, { capabilities: CAPS });
  }
}
