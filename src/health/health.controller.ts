import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { Public } from '../common/auth/public.decorator';
import { DomainError } from '../common/errors';
import { HealthDocs } from '../discovery/discovery.openapi';

/** Liveness and readiness: no token, no data (decisions.md section 10). */
@ApiTags('health')
@Controller()
export class HealthController {
  constructor(private readonly ds: DataSource) {}

  @Public()
  @Get('healthz')
  @HealthDocs.live
  live() {
    return { status: 'ok' };
  }

  @Public()
  @Get('readyz')
  @HealthDocs.ready
  async ready() {
    try {
      await this.ds.query('SELECT 1');
      return { status: 'ready' };
    } catch {
      throw new DomainError('not_ready', 'the database is not reachable', { severity: 'recoverable' });
    }
  }
}
