import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { Public } from '../../common/auth/public.decorator';
import { DomainError } from '../../common/errors/errors';
import { HealthDocs } from '../../discovery/api/discovery.openapi';
import { ReplicaSet } from '../../database/replicas/replica-set';
import { replicasReport } from '../replica-health';

/** Liveness and readiness: no token, no data (docs/contract/). */
@ApiTags('health')
@Controller()
export class HealthController {
  constructor(
    private readonly ds: DataSource,
    private readonly replicas: ReplicaSet,
  ) {}

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
    } catch {
      throw new DomainError('not_ready', 'the database is not reachable', { severity: 'recoverable' });
    }
    return { status: 'ready', ...replicasReport(this.replicas.status()) };
  }
}
