import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module';
import { BudgetService } from './budget.service';
import { GuardsRepository } from './guards.repository';
import { GuardsService } from './guards.service';
import { KillSwitchService } from './kill-switch.service';

/** The one guard layer shared by every money path (checkout, pricing, replenishment). */
@Module({
  imports: [EventsModule],
  providers: [GuardsRepository, GuardsService, KillSwitchService, BudgetService],
  exports: [GuardsService, KillSwitchService, BudgetService],
})
export class GuardsModule {}
