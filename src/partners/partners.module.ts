import { HttpModule } from '@nestjs/axios';
import { Module } from '@nestjs/common';
import { ClockModule } from '../common/clock.module';
import { MetricsModule } from '../metrics/metrics.module';
import { PARTNER_AXIOS_CONFIG } from './http/partner-http.client';
import { PartnerRegistry } from './registry/partner-registry';

/**
 * The partner adapters (`PartnerRegistry`), one instance for the whole app. Partner HTTP goes through @nestjs/axios
 * (one HttpService with the rules every partner call shares; each adapter adds its base URL, token and timeout).
 */
@Module({ imports: [HttpModule.register(PARTNER_AXIOS_CONFIG), ClockModule, MetricsModule], providers: [PartnerRegistry], exports: [PartnerRegistry] })
export class PartnersModule {}
