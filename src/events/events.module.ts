import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EventBus, InProcessEventBus } from './event-bus';
import { EventEntity } from './event.entity';
import { EventsController } from './events.controller';
import { EventsRepository } from './events.repository';
import { EventsService } from './events.service';

/** Global: every capability records its decisions through EventsService. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([EventEntity])],
  controllers: [EventsController],
  providers: [EventsRepository, EventsService, { provide: EventBus, useClass: InProcessEventBus }],
  exports: [EventsService],
})
export class EventsModule {}
