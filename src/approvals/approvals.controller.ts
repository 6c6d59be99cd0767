import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ok } from '../common/envelope';
import { ListApprovalsQuery, ResolveApprovalBody } from './approvals.dto';
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
  @ApprovalsDocs.resolve
  async resolve(@Param('id') id: string, @Body() body: ResolveApprovalBody) {
    return ok({ approval: await this.approvals.resolve(id, body.approved, body.resolver) }, { capabilities: CAPS });
  }
}
