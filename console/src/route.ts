/** Hash routes (`#/fleet`, `#/machine/<id>`): the server serves one page, and no token ever sits in a URL. */
import { useEffect, useState } from 'preact/hooks';

export type Route = { screen: string; id: string | null };

export function parseRoute(hash: string): Route {
  const [screen = 'today', id] = hash.replace(/^#\/?/, '').split('/');
  return { screen: screen || 'today', id: id ? decodeURIComponent(id) : null };
}

export function useRoute(): Route {
  const [route, setRoute] = useState(parseRoute(window.location.hash));
  useEffect(() => {
    const on = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  return route;
}

export const href = (screen: string, id?: string) => `#/${screen}${id ? `/${encodeURIComponent(id)}` : ''}`;
