/**
 * The route day's calls (issue 35): today's route (`GET /visits`), recording a visit (`POST /visits`) and a run's
 * arrival at the warehouse (`POST /replenishment/runs/{id}/arrivals`), through the generated client.
 */
import { useRef } from 'preact/hooks';
import { api, call, type Schemas } from './api';

export type PickView = { slot_id: string; position: string; sku_id: string; title: string; units: number; fill_to: number; stock: number; short: number };
export type RouteSlotView = {
  slot_id: string;
  position: string;
  sku_id: string;
  title: string;
  stock: number;
  capacity: number | null;
  rate_per_day: number;
  demand_measured: boolean;
  cover_days: number | null;
  price_fen: number;
};
export type MachineRoute = {
  location_id: string;
  name: string;
  site: string;
  cycle_days: number;
  next_possible_visit: string | null;
  lost_if_skipped_fen: number;
  sold_out_slots: number;
  slots: RouteSlotView[];
  picks: PickView[];
};
export type Stop = { order: number; site: string; value_fen: number; lost_if_skipped_fen: number; stop_cost_fen: number; reason: string; machines: MachineRoute[] };
export type Skipped = { location_id: string; name: string; site: string; reason: string; lost_if_skipped_fen: number; stop_cost_fen: number; due_day: string | null; next_possible_visit: string | null };
export type RouteDay = {
  computed_at: string;
  day: string;
  settings: { stops_per_day: number; stop_cost_fen: number; horizon_days: number; fill_policy: string; default_margin_share: number };
  stops: { planned: number; capacity: number };
  route: Stop[];
  skipped: Skipped[];
  van: { sku_id: string; title: string; units: number; slots: number }[];
  warehouse_short: { sku_id: string; title: string; units: number }[];
  messages: Schemas['UcpMessageView'][];
};
export type VisitBody = { location_id: string; slots: { slot_id: string; loaded: number; returned?: number }[]; note?: string; confirm: true };
export type VisitResult = {
  id: string;
  location_id: string;
  name: string;
  recorded_at: string;
  units_loaded: number;
  units_returned: number;
  slots: { slot_id: string; position: string; title: string; loaded: number; returned: number; stock_before: number; stock_after: number }[];
};
export type Run = Schemas['RunResponse'];

/** Until the generated client has these operations (the lead's backend on main): the same client, untyped paths. */
type Loose = {
  GET(path: string, init: object): Promise<{ data?: unknown; error?: unknown; response: Response }>;
  POST(path: string, init: object): Promise<{ data?: unknown; error?: unknown; response: Response }>;
};
const loose = api as unknown as Loose;

export const readRoute = () => call(loose.GET('/ucp/v1/visits', {})) as Promise<RouteDay>;

export const recordVisit = (body: VisitBody, key: string) =>
  (call(loose.POST('/ucp/v1/visits', { headers: { 'Idempotency-Key': key }, body })) as Promise<{ visit: VisitResult }>).then((r) => r.visit);

export const recordArrival = (id: string, arrived: { slot_id: string; quantity: number }[], key: string) =>
  call(loose.POST(`/ucp/v1/replenishment/runs/${encodeURIComponent(id)}/arrivals`, { headers: { 'Idempotency-Key': key }, body: { arrived } })) as Promise<Run>;

/**
 * One Idempotency-Key per submission: a fresh UUID for a new submission, the same one when the same submission is
 * sent again (a retry after a lost or failed answer replays instead of recording twice); `settled()` after success.
 */
export function useSubmissionKey(prefix: string): { keyFor: (body: unknown) => string; settled: () => void } {
  const last = useRef<{ body: string; key: string } | null>(null);
  return {
    keyFor(body) {
      const text = JSON.stringify(body);
      if (last.current?.body !== text) last.current = { body: text, key: `${prefix}-${crypto.randomUUID()}` };
      return last.current.key;
    },
    settled() {
      last.current = null;
    },
  };
}
