import { Module } from '@nestjs/common';
import { GuardsModule } from '../guards/guards.module';
import { SpendingController } from './api/spending.controller';

/** `GET /budget`: the budgets with today's and this month's spend (issue 30). */
@Module({ imports: [GuardsModule], controllers: [SpendingController] })
export class SpendingModule {}
