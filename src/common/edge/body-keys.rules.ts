/**
 * Pure rule of the body a route takes no body for (issue 25), no Nest import. A route whose contract takes no body
 * answers any key in one with 400 naming it, as it does an unknown query key: `POST /replenishment/runs` with
 * `{"location": "L2"}` used to ignore the key and order for the whole fleet. No body, `null`, `{}` and `[]` say nothing
 * and are accepted (clients that always send `{}`).
 */
import { childPath, EdgeProblem } from './edge.rules';

const TAKES_NO_BODY = 'this route takes no request body';

/** The first problem of a parsed body (`req.body`) sent to a route that takes none, or null. */
export function bodyKeysProblem(body: unknown): EdgeProblem | null {
  if (body === undefined || body === null) return null;
  if (Array.isArray(body)) return body.length ? { path: '$[0]', why: `$[0]: ${TAKES_NO_BODY}` } : null;
  if (typeof body === 'object') {
    const key = Object.keys(body)[0];
    if (key === undefined) return null;
    const path = childPath('$', key);
    return { path, why: `${path}: ${TAKES_NO_BODY}; it is not read, so nothing it says would be applied` };
  }
  return { path: '$', why: `$: ${TAKES_NO_BODY}` };
}
