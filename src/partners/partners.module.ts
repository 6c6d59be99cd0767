import { Module } from '@nestjs/common';
import { PartnerRegistry } from './registry/partner-registry';

/** The partner adapters (`PartnerRegistry`), one instance for the whole app. */
@Module({ providers: [PartnerRegistry], exports: [PartnerRegistry] })
export class PartnersModule {}
