import { EventView } from './event.view';

/**
 * Fan-out of stored events to every instance's sockets. The in-process bus serves one instance (and the embedded
 * database); the PostgreSQL bus (LISTEN/NOTIFY, pg-event-bus.ts) reaches every instance sharing the database.
 * `publish` is called once the event is committed; listeners receive events in the order they were stored.
 */
export abstract class EventBus {
  abstract publish(event: EventView): Promise<void>;
  abstract subscribe(listener: (event: EventView) => void): () => void;
  /** Stops background work (listening connections, timers). */
  async close(): Promise<void> {}
}

export class InProcessEventBus extends EventBus {
  private readonly listeners = new Set<(event: EventView) => void>();
  async publish(event: EventView): Promise<void> {
    for (const l of this.listeners) {
      try {
        l(event);
      } catch {
        // One failing listener must not keep the event from the others (nor fail the request that stored it).
      }
    }
  }
  subscribe(listener: (event: EventView) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
