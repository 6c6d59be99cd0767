import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ok } from '../../common/envelope/envelope';
import { okRendered } from '../../common/envelope/rendered-json';
import { CreateEventBody, ListEventsQuery } from './events.dto';
import './events.query';
import { EventsService } from '../events.service';
import { renderEvent, renderEventPage } from './event.view';
import { EventsDocs } from './events.openapi';

const CAPS = ['com.example.svc.events'];

@ApiTags('events')
@Controller('ucp/v1/events')
export class EventsController {
  constructor(private readonly events: EventsService) {}

  @Get()
  @EventsDocs.list
  async list(@Query() q: ListEventsQuery) {
    return okRendered({ events: renderEventPage(await this.events.list(q)) }, { capabilities: CAPS });
  }

  @Post()
  @HttpCode(201)
  @EventsDocs.create
  async create(@Body() body: CreateEventBody) {
    return ok(renderEvent(await this.events.recordClient(body)), { capabilities: CAPS });
  }
}
