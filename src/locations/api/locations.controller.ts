import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ok } from '../../common/envelope/envelope';
import { PutLocationBody, SearchLocationsBody } from './locations.dto';
import { LocationsService } from '../locations.service';
import { renderLocation, renderLocationPage, renderLocationRemoval } from './location.view';
import { renderLiveInventory } from '../../inventory/api/live-inventory.view';
import { LocationsDocs } from './locations.openapi';

const CAPS = ['com.example.svc.location'];

@ApiTags('locations')
@Controller('ucp/v1/locations')
export class LocationsController {
  constructor(private readonly locations: LocationsService) {}

  @Post('search')
  @HttpCode(200)
  @LocationsDocs.search
  async search(@Body() body: SearchLocationsBody) {
    return ok(renderLocationPage(await this.locations.search(body)), { capabilities: CAPS });
  }

  @Put(':id')
  @LocationsDocs.put
  async put(@Param('id') id: string, @Body() body: PutLocationBody) {
    const { location } = await this.locations.put(id, body);
    return ok({ location: renderLocation(location) }, { capabilities: CAPS });
  }

  @Delete(':id')
  @LocationsDocs.remove
  async remove(@Param('id') id: string) {
    return ok(renderLocationRemoval(await this.locations.remove(id)), { capabilities: CAPS });
  }

  @Get(':id/inventory')
  @LocationsDocs.inventory
  async inventory(@Param('id') id: string) {
    return ok(renderLiveInventory(await this.locations.inventory(id)), { capabilities: ['com.example.svc.inventory', ...CAPS] });
  }
}
