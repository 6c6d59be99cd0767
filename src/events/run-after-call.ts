/**
 * Coalesces calls of one asynchronous operation so that each call is answered by a run that *started after the
 * call*, with at most one run at a time: calls made while a run is in flight share the next run. This is what a
 * barrier needs ("everything committed before I asked has been seen") without a round trip per caller.
 */
export class RunAfterCall<T> {
  private running: Promise<T> | null = null;
  private queued: Promise<T> | null = null;

  constructor(private readonly op: () => Promise<T>) {}

  call(): Promise<T> {
    if (!this.running) return this.start();
    if (!this.queued) {
      const settled = this.running.then(
        () => undefined,
        () => undefined,
      );
      this.queued = settled.then(() => {
        this.queued = null;
        return this.start();
      });
    }
    return this.queued;
  }

  private start(): Promise<T> {
    const run: Promise<T> = Promise.resolve()
      .then(() => this.op())
      .finally(() => {
        if (this.running === run) this.running = null;
      });
    this.running = run;
    return run;
  }
}
