/**
 * Machine names and slot positions for screens whose answers carry ids only (a run's lines): the names from
 * `GET /fleet`, a slot's position as the platform labels it (the product code when it has no label of its own).
 */
import { api, call } from './api';
import { noteServiceTime } from './service-day';
import { useLoad } from './ui';

export type Names = { machine: (id: string) => string };

export function useMachineNames(): Names {
  const [load] = useLoad(async () => {
    const f = await call(api.GET('/ucp/v1/fleet', {}));
    noteServiceTime(f.read_at);
    return new Map(f.machines.map((m) => [m.id, m.name]));
  }, []);
  const names = load.state === 'ready' ? load.data : null;
  return { machine: (id) => names?.get(id) ?? id };
}

/** A line's slot position: its own `position` when the service gives one, else the product code of its good. */
export function positionOf(l: { position?: string | null; item: { id: string } }): string {
  if (l.position) return l.position;
  const i = l.item.id.indexOf(':');
  return i >= 0 ? l.item.id.slice(i + 1) : l.item.id;
}
