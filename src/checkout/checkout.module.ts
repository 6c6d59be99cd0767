import { Module } from '@nestjs/common';
import { CheckoutRecoveryScheduler } from './checkout-recovery.scheduler';
import { CheckoutController } from './checkout.controller';
import { CheckoutRepository } from './checkout.repository';
import { CheckoutService } from './checkout.service';

@Module({
  controllers: [CheckoutController],
  providers: [CheckoutRepository, CheckoutService, CheckoutRecoveryScheduler],
  exports: [CheckoutRepository, CheckoutService],
})
export class CheckoutModule {}
