import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { cny } from '../catalog/variant.rules';
import { ok } from '../common/envelope';
import { toPlus8 } from '../common/time';
import { BudgetService } from '../guards/budget.service';
import { SpendingDocs } from './spending.openapi';

/** `GET /budget` (issue 30): each budget with what is already spent against it, so an approval can be judged. */
@ApiTags('admin')
@Controller('ucp/v1/budget')
export class SpendingController {
  constructor(private readonly budget: BudgetService) {}

  @Get()
  @SpendingDocs.standing
  async standing() {
    const now = new Date();
    const s = await this.budget.standing(now);
    return ok(
      {
        read_at: toPlus8(now),
        per_order: { limit: cny(s.budget.perOrderFen) },
        daily: { limit: cny(s.budget.dailyFen), spent: cny(s.dayFen) },
        monthly: { limit: cny(s.budget.monthlyFen), spent: cny(s.monthFen) },
      },
      { capabilities: ['com.example.svc.guards'] },
    );
  }
}
