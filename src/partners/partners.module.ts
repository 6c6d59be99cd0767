import { Global, Module } from '@nestjs/common';
import { PartnerRegistry } from './registry/partner-registry';

@Global()
@Module({ providers: [PartnerRegistry], exports: [PartnerRegistry] })
export class PartnersModule {}
