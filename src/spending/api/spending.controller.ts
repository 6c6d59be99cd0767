import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ok } from '../../common/envelope/envelope';
import { BudgetService } from '../../guards/budget.service';
import { renderBudgetStanding } from './budget-standing.view';
import { SpendingDocs } from './spending.openapi';

/** `GET /budget` (issue 30): each budget with what is already spent against it, so an approval can be judged. */
@ApiTags('admin')
@Controller('ucp/v1/budget')
export class SpendingController {
  constructor(private readonly budget: BudgetService) {}

  @Get()
  @SpendingDocs.standing
  async standing() {
    return ok(renderBudgetStanding(await this.budget.standing(new Date())), { capabilities: ['com.example.svc.guards'] });
  }
}
