/**
 * The kinds of event the service records itself: one closed list, and its type. `EventsService.record` takes only
 * these, so a misspelt kind does not compile, and the AsyncAPI document lists each (test/unit/events/event-kinds.spec.ts).
 * A client's posted event (`POST /events`) has a free kind and `source: "client"`.
 */
export const SERVICE_EVENT_KINDS = [
  'sync.completed',
  'sync.failed',
  'sale.settled',
  'checkout.completed',
  'checkout.rejected',
  'checkout.canceled',
  'price.changed',
  'price.mismatch',
  'approval.requested',
  'approval.resolved',
  'restock.sent',
  'restock.completed',
  'restock.cancelled',
  'replenishment.run',
  'depot.stock',
  'stock.over_delivered',
  'visit.recorded',
  'route.settings',
  'guard.changed',
  'kill_switch',
  'partner.error',
  'purchase.status',
  'sku.aliases_changed',
  'location.removed',
  'agent.connected',
  'agent.disconnected',
] as const;

export type ServiceEventKind = (typeof SERVICE_EVENT_KINDS)[number];

/** Who wrote an event: the service itself, or a client through `POST /events`. */
export const EVENT_SOURCES = ['service', 'client'] as const;
export type EventSource = (typeof EVENT_SOURCES)[number];
