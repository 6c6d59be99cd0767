import { registerFastQuery } from '../../common/edge/validation';
import { ListEventsQuery } from './events.dto';

/**
 * The hot `GET /events` queries read without class-validator (issue 13): limit, location and kind, each a single
 * plainly valid value; anything else returns null and takes the full validation.
 */
const LIMIT = /^[1-9][0-9]{0,2}$/;
const WORD = /^[A-Za-z0-9._:-]{1,200}$/;

export function fastEventsQuery(q: Record<string, unknown>): ListEventsQuery | null {
  const out = new ListEventsQuery();
  for (const key in q) {
    const v = q[key];
    if (typeof v !== 'string') return null;
    if (key === 'limit' && LIMIT.test(v) && Number(v) <= 500) out.limit = Number(v);
    else if (key === 'location' && WORD.test(v)) out.location = v;
    else if (key === 'kind' && WORD.test(v)) out.kind = v;
    else return null;
  }
  return out;
}

registerFastQuery(ListEventsQuery, fastEventsQuery);
