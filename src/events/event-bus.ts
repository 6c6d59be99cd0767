import type { EventEntity } from './event.entity';
import type { CommitSignals } from './event-pages.cache';

/**
 * Fan-out of stored events to every instance's sockets. The in-process bus serves one instance (and the embedded
 * database); the PostgreSQL bus (LISTEN/NOTIFY, pg-event-bus.ts) reaches every instance sharing the database.
 * `publish` is called once the event is committed; listeners receive events in the order they were stored, as stored
 * (the edge renders them: the socket gateway sends each rendered once).
 */
export abstract class EventBus implements CommitSignals {
  abstract publish(event: EventEntity): Promise<void>;
  abstract subscribe(listener: (event: EventEntity) => void): () => void;
  /** Called at once on every publish here, every notification from any instance, every (re)connection. */
  abstract onCommitted(listener: () => void): () => void;
  abstract barrier(): Promise<boolean>;
  /** Stops background work (listening connections, timers). */
  async close(): Promise<void> {}
}

/** Calls every listener, so that one failing listener never keeps a signal from the others. */
export function signalAll(listeners: Iterable<() => void>): void {
  for (const l of listeners) {
    try {
      l();
    } catch {
      // a listener's failure is its own
    }
  }
}

export class InProcessEventBus extends EventBus {
  private readonly listeners = new Set<(event: EventEntity) => void>();
  private readonly committed = new Set<() => void>();
  async publish(event: EventEntity): Promise<void> {
    signalAll(this.committed);
    for (const l of this.listeners) {
      try {
        l(event);
      } catch {
        // One failing listener must not keep the event from the others (nor fail the request that stored it).
      }
    }
  }
  subscribe(listener: (event: EventEntity) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  onCommitted(listener: () => void): () => void {
    this.committed.add(listener);
    return () => this.committed.delete(listener);
  }
  /** One instance, and `publish` signals synchronously: nothing can be in transit. */
  barrier(): Promise<boolean> {
    return Promise.resolve(true);
  }
}
