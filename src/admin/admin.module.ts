import { Module } from '@nestjs/common';
import { AdminController } from './admin.controller';
import { ClockController } from './clock.controller';
import { ClockService } from './clock.service';
import { GuardsModule } from '../guards/guards.module';

@Module({ imports: [GuardsModule], controllers: [AdminController, ClockController], providers: [ClockService] })
export class AdminModule {}
