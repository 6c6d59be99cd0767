import { Module } from '@nestjs/common';
import { AdminController } from './api/admin.controller';
import { GuardsModule } from '../guards/guards.module';

@Module({ imports: [GuardsModule], controllers: [AdminController] })
export class AdminModule {}
