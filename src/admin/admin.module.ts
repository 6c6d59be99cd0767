import { Module } from '@nestjs/common';
import { AdminController } from './admin.controller';
import { GuardsModule } from '../guards/guards.module';

@Module({ imports: [GuardsModule], controllers: [AdminController] })
export class AdminModule {}
