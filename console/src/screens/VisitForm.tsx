/**
 * Recording a visit to one machine: the form lists its picks (loaded prefilled with the pick's units, returned 0,
 * both editable per slot), a confirm step repeats in words what will be recorded, then `POST /visits` with
 * `confirm: true` and an Idempotency-Key per submission (the same key when the same submission is sent again).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { UcpMessage } from '../api';
import { recordVisit, useSubmissionKey, type MachineRoute, type VisitBody, type VisitResult } from '../route-api';
import { Messages, useAction } from '../ui';

type Row = { loaded: string; returned: string };

const units = (n: number) => (n === 1 ? '1 unit' : `${n} units`);
const wrong = (content: string, path = '$'): UcpMessage => ({ type: 'error', code: 'invalid', severity: 'recoverable', path, content, content_type: 'plain' });

/** The form's rows as the request's slots, or what is wrong with them. */
function toBody(m: MachineRoute, rows: Record<string, Row>, note: string): VisitBody | UcpMessage[] {
  const problems: UcpMessage[] = [];
  const slots = m.picks.map((p) => {
    const r = rows[p.slot_id] ?? { loaded: '0', returned: '0' };
    const loaded = Number(r.loaded.trim() || '0');
    const returned = Number(r.returned.trim() || '0');
    if (!Number.isInteger(loaded) || loaded < 0) problems.push(wrong(`loaded into ${p.position} ${p.title} must be a whole number of units, 0 or more`));
    if (!Number.isInteger(returned) || returned < 0) problems.push(wrong(`returned from ${p.position} ${p.title} must be a whole number of units, 0 or more`));
    return { slot_id: p.slot_id, loaded, ...(returned > 0 ? { returned } : {}) };
  });
  if (problems.length) return problems;
  return { location_id: m.location_id, slots, ...(note.trim() ? { note: note.trim() } : {}), confirm: true };
}

/** The service's words with the machine's slots by position and product instead of their ids. */
function named(messages: UcpMessage[], m: MachineRoute): UcpMessage[] {
  const slots = [...m.slots].sort((a, b) => b.slot_id.length - a.slot_id.length);
  return messages.map((x) => ({ ...x, content: slots.reduce((t, s) => t.split(`slot ${s.slot_id}`).join(`${s.position} ${s.title}`).split(s.slot_id).join(`${s.position} ${s.title}`), x.content) }));
}

export function VisitForm({ machine: m, onClose, onRecorded }: { machine: MachineRoute; onClose: () => void; onRecorded: (v: VisitResult) => void }) {
  const [rows, setRows] = useState<Record<string, Row>>(() => Object.fromEntries(m.picks.map((p) => [p.slot_id, { loaded: String(p.units), returned: '0' }])));
  const [note, setNote] = useState('');
  const [review, setReview] = useState<VisitBody | null>(null);
  const key = useSubmissionKey(`console-visit-${m.location_id}`);
  const action = useAction(async (body: VisitBody) => {
    const v = await recordVisit(body, key.keyFor(body));
    key.settled();
    onRecorded(v);
    return v;
  });
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (review) confirmRef.current?.focus();
  }, [review]);
  const set = (slot: string, field: keyof Row, value: string) => setRows({ ...rows, [slot]: { ...rows[slot]!, [field]: value } });
  const title = (slot: string) => {
    const p = m.picks.find((x) => x.slot_id === slot);
    return p ? `${p.position} ${p.title}` : slot;
  };

  if (review) {
    const loaded = review.slots.reduce((t, s) => t + s.loaded, 0);
    const returned = review.slots.reduce((t, s) => t + (s.returned ?? 0), 0);
    return (
      <div class="confirm visit-confirm" role="group" aria-label={`Confirm the visit to ${m.name}`}>
        <p>
          <strong>
            Record the visit to {m.name}: {units(loaded)} go from the van into the machine
          </strong>
          {returned ? `, ${units(returned)} come back to the warehouse` : ''}.
        </p>
        <ul>
          {review.slots.map((s) => (
            <li key={s.slot_id}>
              {title(s.slot_id)}: {s.loaded} loaded{s.returned ? `, ${s.returned} returned` : ''}
            </li>
          ))}
        </ul>
        {review.note && <p>Note: {review.note}</p>}
        <p class="muted">The loaded units leave the warehouse's stock and raise each slot's stock.</p>
        <div class="actions wrap">
          <button ref={confirmRef} type="button" class="primary" disabled={action.busy} onClick={() => void action.go(review)}>
            {action.busy ? 'Recording…' : 'Yes, record the visit'}
          </button>
          <button type="button" disabled={action.busy} onClick={() => (setReview(null), action.setMessages([]))}>
            Back to the form
          </button>
        </div>
        <Messages messages={named(action.messages, m)} title="Not recorded:" />
      </div>
    );
  }

  return (
    <form
      class="visit-form"
      aria-label={`Record the visit to ${m.name}`}
      onSubmit={(e) => {
        e.preventDefault();
        const body = toBody(m, rows, note);
        if (Array.isArray(body)) action.setMessages(body);
        else (action.setMessages([]), setReview(body));
      }}
    >
      <h4>Record the visit to {m.name}</h4>
      <p class="muted">Units per slot: loaded from the van into the slot, and returned (picked for the slot but brought back).</p>
      {m.picks.map((p) => (
        <fieldset key={p.slot_id} class="slot-row">
          <legend>
            <span class="pos">{p.position}</span> {p.title} <span class="muted">(bring {p.units}, fill to {p.fill_to})</span>
          </legend>
          <div>
            <label for={`load-${p.slot_id}`}>Loaded</label>
            <input id={`load-${p.slot_id}`} type="number" inputMode="numeric" min="0" step="1" value={rows[p.slot_id]?.loaded} onInput={(e) => set(p.slot_id, 'loaded', e.currentTarget.value)} />
          </div>
          <div>
            <label for={`ret-${p.slot_id}`}>Returned</label>
            <input id={`ret-${p.slot_id}`} type="number" inputMode="numeric" min="0" step="1" value={rows[p.slot_id]?.returned} onInput={(e) => set(p.slot_id, 'returned', e.currentTarget.value)} />
          </div>
        </fieldset>
      ))}
      <label for={`note-${m.location_id}`}>Note (optional)</label>
      <input id={`note-${m.location_id}`} type="text" maxLength={500} value={note} onInput={(e) => setNote(e.currentTarget.value)} />
      <div class="actions wrap">
        <button type="submit" class="primary">
          Review the visit…
        </button>
        <button type="button" onClick={onClose}>
          Cancel
        </button>
      </div>
      <Messages messages={action.messages} title="Not recorded:" />
    </form>
  );
}
