import { RunAfterCall } from '../../../src/events/run-after-call';

/** A run that the test finishes by hand, recording when each one started. */
function manualRuns() {
  const started: { finish: (v: number) => void; fail: (e: Error) => void }[] = [];
  const op = () =>
    new Promise<number>((finish, fail) => {
      started.push({ finish, fail });
    });
  return { started, op };
}
const tick = () => new Promise((r) => setImmediate(r));

describe('RunAfterCall: each call is answered by a run that started after it, one run at a time', () => {
  it('a call with nothing running starts a run and gets its answer', async () => {
    const { started, op } = manualRuns();
    const runs = new RunAfterCall(op);
    const first = runs.call();
    await tick();
    expect(started).toHaveLength(1);
    started[0].finish(1);
    await expect(first).resolves.toBe(1);
  });

  it('calls made while a run is in flight share the next run, which starts only when the first ends', async () => {
    const { started, op } = manualRuns();
    const runs = new RunAfterCall(op);
    const first = runs.call();
    await tick();
    const second = runs.call();
    const third = runs.call();
    await tick();
    expect(started).toHaveLength(1); // never two at once
    started[0].finish(1);
    await expect(first).resolves.toBe(1);
    await tick();
    expect(started).toHaveLength(2);
    started[1].finish(2);
    // The calls made during run 1 are not answered by run 1: it may have started before what they wait for.
    await expect(second).resolves.toBe(2);
    await expect(third).resolves.toBe(2);
  });

  it('a failed run fails its callers only; the queued callers get a run of their own', async () => {
    const { started, op } = manualRuns();
    const runs = new RunAfterCall(op);
    const first = runs.call();
    await tick();
    const second = runs.call();
    started[0].fail(new Error('connection reset'));
    await expect(first).rejects.toThrow('connection reset');
    await tick();
    started[1].finish(7);
    await expect(second).resolves.toBe(7);
    // Idle again: the next call starts at once.
    const later = runs.call();
    await tick();
    expect(started).toHaveLength(3);
    started[2].finish(8);
    await expect(later).resolves.toBe(8);
  });
});
