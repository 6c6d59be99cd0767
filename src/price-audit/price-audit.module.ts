import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module';
import { PriceAuditController } from './api/price-audit.controller';
import { PriceAuditRepository } from './price-audit.repository';
import { PriceAuditService } from './price-audit.service';

/** `GET /price-audit` and the audit the inventory sync runs (issue 30). */
@Module({
  imports: [EventsModule],
  controllers: [PriceAuditController],
  providers: [PriceAuditRepository, PriceAuditService],
  exports: [PriceAuditService],
})
export class PriceAuditModule {}
