/**
 * Polls `probe` until it answers a value other than undefined, null or false, and returns it; fails the test with
 * `what` after `timeoutMs`. The one way tests wait for something another process or request does (instead of a
 * fixed head start or a hand-written loop).
 */
export async function waitUntil<T>(
  probe: () => T | Promise<T>,
  opts: { what: string; timeoutMs?: number; intervalMs?: number },
): Promise<Exclude<T, undefined | null | false>> {
  const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
  const interval = opts.intervalMs ?? 10;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== null && v !== false) return v as Exclude<T, undefined | null | false>;
    if (Date.now() > deadline) throw new Error(`timed out after ${opts.timeoutMs ?? 10_000} ms waiting for ${opts.what}`);
    await new Promise((r) => setTimeout(r, interval));
  }
}
