import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ok } from '../common/envelope';
import { RestockBody } from './restock.dto';
import { RestockService } from './restock.service';
import { RestockDocs } from './restock.openapi';

@ApiTags('replenishment')
@Controller('ucp/v1/locations')
export class RestockController {
  constructor(private readonly restock: RestockService) {}

  @Post(':id/restock')
  @HttpCode(200)
  @RestockDocs.send
  async send(@Param('id') id: string, @Body() body: RestockBody) {
    return ok({ ...(await this.restock.send(id, body)) }, { capabilities: ['com.example.svc.replenishment', 'com.example.svc.location'] });
  }
}
