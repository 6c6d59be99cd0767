import { Inject, Injectable } from '@nestjs/common';
import { Errors } from '../common/errors/errors';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { EventsService } from '../events/events.service';
import { Tx } from '../database/tx';
import { effectiveSettings, ROUTE_HORIZON_DAYS, type MachineRouteSettings, type RouteDefaults, type Weekday } from './route-settings.rules';
import { VisitsRepository, type VisitLocationRow } from './visits.repository';

export interface RouteSettingsChange {
  stop_cost_fen?: number | null;
  visit_days?: Weekday[] | null;
  site?: string | null;
}

/** Route settings: the deployment's defaults (environment) and each machine's own (stop cost, visit days, site). */
@Injectable()
export class RouteSettingsService {
  constructor(
    private readonly repo: VisitsRepository,
    private readonly events: EventsService,
    private readonly tx: Tx,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  defaults(): RouteDefaults {
    return { stopCostFen: this.config.route.stopCostFen, stopsPerDay: this.config.route.stopsPerDay, horizonDays: ROUTE_HORIZON_DAYS };
  }

  /** Every machine of the roster with its effective settings. */
  async machines(): Promise<{ location: VisitLocationRow; settings: MachineRouteSettings }[]> {
    const rows = new Map((await this.repo.settings()).map((r) => [r.locationId, r]));
    return (await this.repo.locations()).map((location) => ({ location, settings: effectiveSettings(location, rows.get(location.id), this.defaults()) }));
  }

  /** Changes a machine's settings; an absent field is kept, null returns it to the default. */
  async put(locationId: string, change: RouteSettingsChange): Promise<{ location: VisitLocationRow; settings: MachineRouteSettings }> {
    await this.tx.run(async () => {
      const location = await this.repo.location(locationId);
      if (!location) throw Errors.notFound(`location ${locationId}`);
      const row = (await this.repo.settings()).find((r) => r.locationId === locationId);
      const next = {
        locationId,
        stopCostFen: change.stop_cost_fen !== undefined ? change.stop_cost_fen : (row?.stopCostFen ?? null),
        visitDays: change.visit_days !== undefined ? change.visit_days : (row?.visitDays ?? null),
        site: change.site !== undefined ? (change.site?.trim() || null) : (row?.site ?? null),
      };
      await this.repo.saveSettings(next);
      await this.events.record({
        kind: 'route.settings',
        summary: `route settings of ${location.name} changed`,
        reasoning: 'what a stop costs, which days the machine can be visited and which machines share its stop decide the route',
        location: locationId,
        data: { location_id: locationId, stop_cost_fen: next.stopCostFen, visit_days: next.visitDays, site: next.site },
      });
    });
    return (await this.machines()).find((m) => m.location.id === locationId)!;
  }
}
