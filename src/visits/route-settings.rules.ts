/** Route settings (pure): weekday names, and a machine's effective settings from its own row and the defaults. */

export const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
/** Every day, Monday first (how a person reads a week). */
export const EVERY_DAY: Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

export interface RouteDefaults {
  stopCostFen: number;
  stopsPerDay: number;
  horizonDays: number;
}

export interface MachineRouteSettings {
  locationId: string;
  site: string;
  stopCostFen: number;
  visitDays: Weekday[];
  /** The machine has a row of its own. */
  custom: boolean;
}

/** Days ahead the route looks, and the longest cycle it considers. */
export const ROUTE_HORIZON_DAYS = 7;
export const ROUTE_MAX_CYCLE_DAYS = 14;
/** Margin share assumed when a good's cost is not known (no supplier prices it). */
export const DEFAULT_MARGIN_SHARE = 0.4;

export function effectiveSettings(
  loc: { id: string; address: string | null },
  row: { stopCostFen: number | null; visitDays: string[] | null; site: string | null } | undefined,
  defaults: RouteDefaults,
): MachineRouteSettings {
  const days = row?.visitDays?.filter((d): d is Weekday => (WEEKDAYS as readonly string[]).includes(d));
  return {
    locationId: loc.id,
    site: row?.site ?? loc.address ?? loc.id,
    stopCostFen: row?.stopCostFen ?? defaults.stopCostFen,
    visitDays: days && days.length ? EVERY_DAY.filter((d) => days.includes(d)) : [...EVERY_DAY],
    custom: row !== undefined,
  };
}

export const weekdayIndexes = (days: readonly Weekday[]): number[] => days.map((d) => WEEKDAYS.indexOf(d));

/** The margin of one unit: its price less its each cost when known (and below the price), else a stated share. */
export function unitMarginFen(priceFen: number, eachCostFen: number | null): number {
  if (!(priceFen > 0)) return 0;
  if (eachCostFen !== null && eachCostFen >= 0 && eachCostFen < priceFen) return priceFen - eachCostFen;
  return Math.round(priceFen * DEFAULT_MARGIN_SHARE);
}
