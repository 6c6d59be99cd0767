import { EventView } from './event.view';

/**
 * Fan-out of stored events to every instance's sockets. The in-process bus serves one instance (and the embedded
 * database); the PostgreSQL bus (LISTEN/NOTIFY) reaches every instance sharing the database.
 */
export abstract class EventBus {
  abstract publish(event: EventView): Promise<void>;
  abstract subscribe(listener: (event: EventView) => void): () => void;
}

export class InProcessEventBus extends EventBus {
  private readonly listeners = new Set<(event: EventView) => void>();
  async publish(event: EventView): Promise<void> {
    for (const l of this.listeners) l(event);
  }
  subscribe(listener: (event: EventView) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
