import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Credential } from '../common/auth/credential';
import { RequestCredential, RequiresApprover } from '../common/auth/requires-approver.decorator';
import { ok } from '../common/envelope';
import { resolutionNeedsApprover } from './approval.rules';
import { ListApprovalsQuery, ResolveApprovalBody, WithdrawApprovalBody } from './approvals.dto';
import { ApprovalsService } from './approvals.service';
import { ApprovalsDocs } from './approvals.openapi';

const CAPS = ['com.example.svc.approval'];

@ApiTags('approvals')
@Controller('ucp/v1/approvals')
export class ApprovalsController {
  constructor(private readonly approvals: ApprovalsService) {}

  @Get()
  @ApprovalsDocs.list
  async list(@Query() q: ListApprovalsQuery) {
    return ok({ approvals: await this.approvals.list(q) }, { capabilities: CAPS });
  }

  @Get(':id')
  @ApprovalsDocs.get
  async get(@Param('id') id: string) {
    return ok({ approval: await this.approvals.get(id) }, { capabilities: CAPS });
  }

  @Post(':id')
  @HttpCode(200)
  @RequiresApprover(resolutionNeedsApprover)
  @ApprovalsDocs.resolve
  async resolve(@Param('id') id: string, @Body() body: ResolveApprovalBody, @RequestCredential() credential: Credential) {
    return ok({ approval: await this.approvals.resolve(id, body.approved, body.resolver, credential) }, { capabilities: CAPS });
  }

  @Post(':id/withdraw')
  @HttpCode(200)
  @ApprovalsDocs.withdraw
  async withdraw(@Param('id') id: string, @Body() body: WithdrawApprovalBody, @RequestCredential() credential: Credential) {
    return ok({ approval: await this.approvals.withdraw(id, body.reason, credential) }, { capabilities: CAPS });
  }
}
