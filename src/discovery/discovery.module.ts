import { Module } from '@nestjs/common';
import { DiscoveryController } from './api/discovery.controller';
import { DiscoveryService } from './discovery.service';
import { PartnersModule } from '../partners/partners.module';

@Module({ imports: [PartnersModule], controllers: [DiscoveryController], providers: [DiscoveryService] })
export class DiscoveryModule {}
