/**
 * A placed run's goods coming in, line by line, each through a confirm step: arrived at the warehouse
 * (`POST /replenishment/runs/{id}/arrivals`: the units go into the warehouse stock, the machines' stock does not
 * change), confirmed first; or delivered straight into the machines (`/receive`).
 */
import { useState } from 'preact/hooks';
import { api, call, type UcpMessage } from '../api';
import { recordArrival, useSubmissionKey, type Run } from '../route-api';
import type { Names } from '../slot-names';
import { Confirm, Messages, useAction } from '../ui';
import { lineName } from './RunLines';

type Line = Run['lines'][number];
type Entry = { slot_id: string; quantity: number };

const openLines = (run: Run) => run.lines.filter((l) => !run.delivered?.some((d) => d.slot_id === l.slot_id));
const problem = (content: string): UcpMessage => ({ type: 'error', code: 'invalid', severity: 'recoverable', path: '$', content, content_type: 'plain' });

/** The filled lines as entries, or what is wrong with them. */
function entries(lines: Line[], qty: Record<string, string>, names: Names): Entry[] | UcpMessage[] {
  const bad: UcpMessage[] = [];
  const out: Entry[] = [];
  for (const l of lines) {
    const text = (qty[l.slot_id] ?? '').trim();
    if (text === '') continue;
    const n = Number(text);
    if (!Number.isInteger(n) || n < 0) bad.push(problem(`${lineName(l, names)}: the quantity must be a whole number of units, 0 or more`));
    else out.push({ slot_id: l.slot_id, quantity: n });
  }
  return bad.length ? bad : out;
}

function LineInputs({ lines, qty, setQty, names, prefix }: { lines: Line[]; qty: Record<string, string>; setQty: (q: Record<string, string>) => void; names: Names; prefix: string }) {
  return (
    <>
      {lines.map((l) => (
        <div key={l.slot_id} class="row">
          <label for={`${prefix}-${l.slot_id}`}>
            {lineName(l, names)} <span class="muted">(ordered {l.ordered_each})</span>
          </label>
          <input id={`${prefix}-${l.slot_id}`} type="number" inputMode="numeric" min="0" step="1" value={qty[l.slot_id] ?? ''} onInput={(e) => setQty({ ...qty, [l.slot_id]: e.currentTarget.value })} />
        </div>
      ))}
    </>
  );
}

function summary(list: Entry[], lines: Line[], names: Names): string {
  return list.map((e) => `${e.quantity} × ${lineName(lines.find((l) => l.slot_id === e.slot_id)!, names)}`).join('; ');
}

/** The goods of a placed run arrived at the warehouse (not yet in the machines). */
/** `onDone(words)`: what was recorded, shown by the run (this form leaves once every line is closed). */
export function RecordArrival({ run, names, onDone }: { run: Run; names: Names; onDone: (recorded: string) => void }) {
  const open = openLines(run);
  const [qty, setQty] = useState<Record<string, string>>(() => Object.fromEntries(open.map((l) => [l.slot_id, String(l.ordered_each)])));
  const key = useSubmissionKey(`console-arrival-${run.id}`);
  const checked = entries(open, qty, names);
  const list = Array.isArray(checked) && checked.every((e): e is Entry => 'slot_id' in e) ? checked : [];
  const action = useAction(async () => {
    await recordArrival(run.id, list, key.keyFor(list));
    key.settled();
    onDone(`Recorded: ${summary(list, open, names)} arrived at the warehouse.`);
  });
  const bad = list.length === 0 && Array.isArray(checked) && checked.length > 0 ? (checked as UcpMessage[]) : [];
  return (
    <form class="arrivals receive" aria-label="Arrived at the warehouse" onSubmit={(e) => e.preventDefault()}>
      <h4>Arrived at the warehouse</h4>
      <p class="muted">Units per line that reached the warehouse; leave a line empty if it has not arrived (it stays on order).</p>
      <LineInputs lines={open} qty={qty} setQty={setQty} names={names} prefix="arr" />
      <Messages messages={bad} title="Check the quantities:" />
      <Confirm
        label="Record the arrival…"
        confirmLabel="Yes, record the arrival"
        warning={
          <>
            Into the warehouse: {summary(list, open, names) || 'nothing'}. The machines' stock does not change; the units are loaded on a visit.
            {list.length < open.length ? ' The lines left empty stay on order.' : ' Every line is then closed.'}
          </>
        }
        busy={action.busy}
        disabled={list.length === 0}
        onConfirm={() => void action.go()}
      />
      <Messages messages={action.messages} title="Not recorded:" />
    </form>
  );
}

/** Delivered straight into the machines: a short quantity closes the line with its shortfall. */
export function ReceiveRun({ run, names, onDone }: { run: Run; names: Names; onDone: () => void }) {
  const open = openLines(run);
  const [qty, setQty] = useState<Record<string, string>>(() => Object.fromEntries(open.map((l) => [l.slot_id, String(l.ordered_each)])));
  const checked = entries(open, qty, names);
  const list = checked.every((e): e is Entry => 'slot_id' in e) ? (checked as Entry[]) : [];
  const action = useAction(async () => {
    await call(api.POST('/ucp/v1/replenishment/runs/{id}/receive', { params: { path: { id: run.id } }, body: { delivered: list } }));
    onDone();
  });
  return (
    <form
      class="receive"
      aria-label="Delivered into the machines"
      onSubmit={(e) => {
        e.preventDefault();
        void action.go();
      }}
    >
      <h4>Delivered into the machines</h4>
      <p class="muted">Units per line put into the slots; the lines left empty are closed as never delivered. Units a slot has no room for go to the warehouse.</p>
      <LineInputs lines={open} qty={qty} setQty={setQty} names={names} prefix="rcv" />
      <button type="submit" class="primary" disabled={action.busy || list.length === 0}>
        {action.busy ? 'Recording…' : 'Record the delivery'}
      </button>
      <Messages messages={action.messages} title="Not recorded:" />
    </form>
  );
}
