import { Module } from '@nestjs/common';
import { LocationsModule } from '../locations/locations.module';
import { SyncModule } from '../sync/sync.module';
import { StagingSeedService } from './staging-seed.service';

@Module({ imports: [LocationsModule, SyncModule], providers: [StagingSeedService] })
export class StagingModule {}
