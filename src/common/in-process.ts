/**
 * Marks a request another transport runs in process through the REST pipeline (an MCP tool call): the outer request
 * was already counted by the rate limit, so its inner one is not counted twice. A symbol cannot arrive from the
 * network, so no client can claim it.
 */
const IN_PROCESS = Symbol('in-process request');

export function markInProcess(req: object): void {
  (req as Record<symbol, boolean>)[IN_PROCESS] = true;
}

export function isInProcess(req: object): boolean {
  return (req as Record<symbol, boolean | undefined>)[IN_PROCESS] === true;
}
