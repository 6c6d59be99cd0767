import { Controller, Get } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { Public } from '../common/auth/public.decorator';
import { DomainError } from '../common/errors';

/** Liveness and readiness: no token, no data (decisions.md section 10). */
@ApiExcludeController()
@Controller()
export class HealthController {
  constructor(private readonly ds: DataSource) {}

  @Public()
  @Get('healthz')
  live() {
    return { status: 'ok' };
  }

  @Public()
  @Get('readyz')
  async ready() {
    try {
      await this.ds.query('SELECT 1');
      return { status: 'ready' };
    } catch {
      throw new DomainError(503, 'not_ready', 'the database is not reachable', { severity: 'recoverable' });
    }
  }
}
