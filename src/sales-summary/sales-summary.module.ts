import { Module } from '@nestjs/common';
import { ClockModule } from '../common/clock.module';
import { SalesSummaryController } from './api/sales-summary.controller';
import { SalesSummaryRepository } from './sales-summary.repository';
import { SalesSummaryService } from './sales-summary.service';

/** `GET /sales/daily` (issue 30): settled sales per day and the today / 7-day totals, summed by the service. */
@Module({ imports: [ClockModule], controllers: [SalesSummaryController], providers: [SalesSummaryRepository, SalesSummaryService] })
export class SalesSummaryModule {}
