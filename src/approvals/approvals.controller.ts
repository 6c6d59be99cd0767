import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { ok } from '../common/envelope';
import { ListApprovalsQuery, ResolveApprovalBody } from './approvals.dto';
import { ApprovalsService } from './approvals.service';

const CAPS = ['com.example.svc.approval'];

@ApiTags('approvals')
@ApiBearerAuth()
@Controller('ucp/v1/approvals')
export class ApprovalsController {
  constructor(private readonly approvals: ApprovalsService) {}

  @Get()
  async list(@Query() q: ListApprovalsQuery) {
    return ok({ approvals: await this.approvals.list(q) }, { capabilities: CAPS });
  }

  @Get(':id')
  async get(@Param('id') id: string) {
    return ok({ approval: await this.approvals.get(id) }, { capabilities: CAPS });
  }

  @Post(':id')
  @HttpCode(200)
  async resolve(@Param('id') id: string, @Body() body: ResolveApprovalBody) {
    return ok({ approval: await this.approvals.resolve(id, body.approved, body.resolver) }, { capabilities: CAPS });
  }
}
