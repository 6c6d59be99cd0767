/**
 * The route day's calls (issue 35): today's route (`GET /visits`), recording a visit (`POST /visits`) and a run's
 * arrival at the warehouse (`POST /replenishment/runs/{id}/arrivals`), through the generated client.
 */
import { useRef } from 'preact/hooks';
import { api, call, type Schemas } from './api';

export type RouteDay = Schemas['VisitsResponse'];
export type Stop = Schemas['RouteStopView'];
export type MachineRoute = Schemas['RouteMachineView'];
export type Skipped = Schemas['RouteSkipView'];
export type VisitBody = Schemas['RecordVisitBody'];
export type VisitResult = Schemas['VisitView'];
export type Run = Schemas['RunResponse'];

export const readRoute = () => call(api.GET('/ucp/v1/visits', {}));

export const recordVisit = (body: VisitBody, key: string) =>
  call(api.POST('/ucp/v1/visits', { params: { header: { 'Idempotency-Key': key } }, body })).then((r) => r.visit);

export const recordArrival = (id: string, arrived: { slot_id: string; quantity: number }[], key: string) =>
  call(api.POST('/ucp/v1/replenishment/runs/{id}/arrivals', { params: { path: { id }, header: { 'Idempotency-Key': key } }, body: { arrived } }));

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
