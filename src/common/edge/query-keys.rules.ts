/**
 * Pure rules of the query string a route takes (issue 17), no Nest import. A key the route does not take, or several
 * values (`?location=a&location=b`, `?location[]=x` read as its own key) where it takes one, is refused with the path
 * of that key: a filter silently dropped would answer every order instead of the asked-for ones.
 */
import { childPath, EdgeProblem } from './edge.rules';

/** The keys a route takes: each says whether it takes several values. Empty: the route takes no query. */
export type QueryKeys = ReadonlyMap<string, 'one' | 'many'>;

export const NO_QUERY: QueryKeys = new Map();

/** The first problem of a parsed query (`req.query`) for a route taking `keys`, or null. */
export function queryKeysProblem(query: Record<string, unknown> | undefined, keys: QueryKeys): EdgeProblem | null {
  if (!query) return null;
  for (const key of Object.keys(query)) {
    const path = childPath('$', key);
    const takes = keys.get(key);
    if (!takes) return { path, why: unknownKeyText(key, keys) };
    const value = query[key];
    if (takes === 'one' && typeof value !== 'string') {
      const n = Array.isArray(value) ? value.length : null;
      return { path, why: `${path} takes one value${n !== null ? `; it was given ${n} times` : ''}` };
    }
  }
  return null;
}

function unknownKeyText(key: string, keys: QueryKeys): string {
  const path = childPath('$', key);
  if (keys.size === 0) return `${path}: this route takes no query parameters`;
  const bracketed = /^([^[\]]+)\[[^\]]*\]$/.exec(key);
  const hint = bracketed && keys.has(bracketed[1]) ? ` (give ${bracketed[1]} once, as ?${bracketed[1]}=value)` : '';
  return `${path} is not a query parameter of this route${hint}; it takes ${[...keys.keys()].sort().join(', ')}`;
}
