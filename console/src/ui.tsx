/** Shared pieces: loading state of a read, message lists from the envelope, confirm steps, progress. */
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, type UcpMessage } from './api';
import { fieldLabel, humanize } from './format';
import { onLiveEvent } from './live';

export type Load<T> = { state: 'loading' } | { state: 'ready'; data: T } | { state: 'failed'; messages: UcpMessage[] };

export function toMessages(e: unknown): UcpMessage[] {
  if (e instanceof ApiError) return e.messages;
  return [{ type: 'error', code: 'internal_error', severity: 'unrecoverable', path: '$', content: String((e as Error)?.message ?? e), content_type: 'plain' }];
}

/** Runs a read and keeps its state; `reload` runs it again. A failure keeps its messages, never an empty result. */
export function useLoad<T>(read: () => Promise<T>, deps: unknown[]): [Load<T>, () => void] {
  const [state, setState] = useState<Load<T>>({ state: 'loading' });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => (s.state === 'ready' ? s : { state: 'loading' }));
    read().then(
      (data) => live && setState({ state: 'ready', data }),
      (e: unknown) => live && setState({ state: 'failed', messages: toMessages(e) }),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return [state, reload];
}

/**
 * The envelope's messages in words: the field a message is about by its label (not its JSONPath), amounts in yuan,
 * no internal names; the code stays in a data attribute for tests and support. `requires_buyer_review` ones are
 * marked for a person to decide.
 */
export function Messages({ messages, title }: { messages: UcpMessage[]; title?: string }) {
  if (!messages.length) return null;
  const isError = messages.some((m) => m.type === 'error');
  return (
    <div class={`messages ${isError ? 'error' : 'note'}`} role={isError ? 'alert' : 'status'}>
      {title && <strong>{title}</strong>}
      <ul>
        {messages.map((m, i) => {
          const label = fieldLabel(m.path);
          return (
            <li key={i} data-code={m.code}>
              {m.severity === 'requires_buyer_review' && <span class="badge review">needs your review</span>}
              {label && <strong>{label}: </strong>}
              {humanize(m.content)}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** What a read shows while loading or after failing; its children only when the data is there. */
export function Loaded<T>({ load, what, children }: { load: Load<T>; what: string; children: (data: T) => ComponentChildren }) {
  if (load.state === 'loading') return <p class="loading" role="status">Loading {what}…</p>;
  if (load.state === 'failed') return <Messages title={`Could not load ${what}:`} messages={load.messages} />;
  return <>{children(load.data)}</>;
}

/** An action in flight: its button is disabled and says so; the result or the messages show below. */
export function useAction<A extends unknown[], R>(run: (...a: A) => Promise<R>) {
  const [busy, setBusy] = useState(false);
  const [messages, setMessages] = useState<UcpMessage[]>([]);
  const go = useCallback(
    async (...a: A): Promise<R | undefined> => {
      setBusy(true);
      setMessages([]);
      try {
        return await run(...a);
      } catch (e) {
        setMessages(toMessages(e));
        return undefined;
      } finally {
        setBusy(false);
      }
    },
    [run],
  );
  return { busy, messages, setMessages, go };
}

/**
 * A two-step action: the first button opens a confirmation that says what will happen; only its confirm button acts.
 */
export function Confirm(props: {
  label: string;
  confirmLabel: string;
  warning: ComponentChildren;
  busy: boolean;
  onConfirm: () => void;
  danger?: boolean;
  disabled?: boolean;
}) {
  const [open, setOpen] = useState(false);
  // Keyboard users land on the confirmation (the button they pressed is gone), and back on the action after cancel.
  const confirmRef = useRef<HTMLButtonElement>(null);
  const openRef = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);
  useEffect(() => {
    if (open) confirmRef.current?.focus();
    else if (wasOpen.current) openRef.current?.focus();
    wasOpen.current = open;
  }, [open]);
  if (!open) {
    return (
      <button ref={openRef} type="button" class={props.danger ? 'danger' : 'primary'} disabled={props.disabled || props.busy} onClick={() => setOpen(true)}>
        {props.label}
      </button>
    );
  }
  return (
    <div class="confirm" role="group" aria-label={`Confirm: ${props.label}`}>
      {/* A block, so a warning may hold a list (an approval's lines, issue 37). */}
      <div class="confirm-warning">{props.warning}</div>
      <button
        ref={confirmRef}
        type="button"
        class={props.danger ? 'danger' : 'primary'}
        disabled={props.busy}
        onClick={() => {
          props.onConfirm();
          setOpen(false);
        }}
      >
        {props.busy ? 'Working…' : props.confirmLabel}
      </button>{' '}
      <button type="button" onClick={() => setOpen(false)} disabled={props.busy}>
        Cancel
      </button>
    </div>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="empty">{children}</p>;
}

/**
 * Reads again when the event socket reports one of `kinds` (a prefix match: `sync.` covers `sync.completed`), at most
 * once per second, so a screen follows the service without a reload.
 */
export function useLiveReload(reload: () => void, kinds: string[]): void {
  useEffect(() => {
    let timer: number | undefined;
    const off = onLiveEvent((e) => {
      if (!kinds.some((k) => e.kind === k || (k.endsWith('.') && e.kind.startsWith(k)))) return;
      window.clearTimeout(timer);
      timer = window.setTimeout(reload, 300);
    });
    return () => {
      off();
      window.clearTimeout(timer);
    };
  }, [reload, kinds.join(',')]);
}
