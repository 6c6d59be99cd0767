import { Module } from '@nestjs/common';
import { LocationsModule } from '../locations/locations.module';
import { SyncModule } from '../sync/sync.module';
import { StagingSeedService } from './staging-seed.service';
import { PartnersModule } from '../partners/partners.module';

@Module({ imports: [LocationsModule, SyncModule, PartnersModule], providers: [StagingSeedService] })
export class StagingModule {}
