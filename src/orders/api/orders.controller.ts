import { Controller, Get, Inject, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ok } from '../../common/envelope/envelope';
import { okRendered } from '../../common/envelope/rendered-json';
import { publicBase } from '../../common/public-url';
import { APP_CONFIG } from '../../config/app-config';
import type { AppConfig } from '../../config/app-config';
import { ListOrdersQuery } from './orders.dto';
import './orders.query';
import { OrdersService } from '../orders.service';
import { renderOrder, renderOrdersPage } from './order.view';
import { OrdersDocs } from './orders.openapi';

const CAPS = ['com.example.svc.order'];

@ApiTags('orders')
@Controller('ucp/v1/orders')
export class OrdersController {
  constructor(
    private readonly orders: OrdersService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @OrdersDocs.list
  async list(@Query() q: ListOrdersQuery, @Req() req: Request) {
    return okRendered(renderOrdersPage(await this.orders.list(q), publicBase(this.config.publicUrl, req)), { capabilities: CAPS });
  }

  @Get(':id')
  @OrdersDocs.find
  async find(@Param('id') id: string, @Req() req: Request) {
    return ok(renderOrder(await this.orders.find(id), publicBase(this.config.publicUrl, req)), { capabilities: CAPS });
  }
}
