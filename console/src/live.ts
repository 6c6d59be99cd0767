/**
 * The event socket (`/ucp/v1/events/ws`), authenticated by the sign-in cookie on the upgrade (same origin). One
 * connection for the whole console; it reconnects with a growing delay after a drop.
 */
import type { Schemas } from './api';

export type LiveEvent = Schemas['EventView'];
export type LiveState = 'connecting' | 'open' | 'closed';

type Listener = (e: LiveEvent) => void;
const listeners = new Set<Listener>();
const stateListeners = new Set<(s: LiveState) => void>();
let socket: WebSocket | null = null;
let state: LiveState = 'closed';
let retry = 0;
let stopped = true;
let timer: number | undefined;

function setState(s: LiveState) {
  state = s;
  stateListeners.forEach((l) => l(s));
}

function connect() {
  const url = `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}/ucp/v1/events/ws`;
  setState('connecting');
  const ws = new WebSocket(url);
  socket = ws;
  ws.onmessage = (m) => {
    let frame: { type?: string; event?: LiveEvent };
    try {
      frame = JSON.parse(String(m.data)) as typeof frame;
    } catch {
      return;
    }
    if (frame.type === 'authenticated') {
      retry = 0;
      setState('open');
    } else if (frame.type === 'event' && frame.event) {
      const e = frame.event;
      listeners.forEach((l) => l(e));
    }
  };
  ws.onclose = () => {
    if (socket !== ws) return;
    socket = null;
    setState('closed');
    if (!stopped) timer = window.setTimeout(connect, Math.min(30_000, 1000 * 2 ** retry++));
  };
}

export function startLive(): void {
  if (!stopped) return;
  stopped = false;
  connect();
}

export function stopLive(): void {
  stopped = true;
  window.clearTimeout(timer);
  const ws = socket;
  socket = null;
  ws?.close();
  setState('closed');
}

export function onLiveEvent(l: Listener): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

export function onLiveState(l: (s: LiveState) => void): () => void {
  stateListeners.add(l);
  l(state);
  return () => stateListeners.delete(l);
}
