/**
 * One stop of today's route: the site, why it is worth visiting (the service's words, then the money lost if skipped
 * against the stop's cost) and, per machine, what to bring to each slot with a form to record the visit.
 */
import { useState } from 'preact/hooks';
import { fenText } from '../format';
import type { MachineRoute, Stop, VisitResult } from '../route-api';
import { href } from '../route';
import { Empty } from '../ui';
import { VisitForm } from './VisitForm';

const days = (d: number) => (d === 1 ? '1 day' : `${d} days`);

/** A stop's site in words: a site the operator never named is its machine's id, so the machines' names stand in. */
export function siteName(site: string, machines: { location_id: string; name: string }[]): string {
  return machines.some((m) => m.location_id === site) ? machines.map((m) => m.name).join(', ') : site;
}

export function RouteStop({ stop, short, onRecorded }: { stop: Stop; short: Set<string>; onRecorded: (v: VisitResult) => void }) {
  const id = `stop-${stop.order}`;
  return (
    <article class="card stop" aria-labelledby={id}>
      <h2 id={id}>
        <span class="rank">{stop.order}.</span> {siteName(stop.site, stop.machines)}
      </h2>
      <p class="why">{stop.reason}</p>
      <dl class="inputs">
        <div>
          <dt>Lost if skipped</dt>
          <dd>{fenText(stop.lost_if_skipped_fen)}</dd>
        </div>
        <div>
          <dt>Cost of the stop</dt>
          <dd>{fenText(stop.stop_cost_fen)}</dd>
        </div>
        {stop.machines.length > 1 && (
          <div>
            <dt>Machines</dt>
            <dd>{stop.machines.length}</dd>
          </div>
        )}
      </dl>
      {stop.machines.map((m) => (
        <MachineStop key={m.location_id} m={m} short={short} onRecorded={onRecorded} />
      ))}
    </article>
  );
}

function MachineStop({ m, short, onRecorded }: { m: MachineRoute; short: Set<string>; onRecorded: (v: VisitResult) => void }) {
  const [recording, setRecording] = useState(false);
  // Slots that want goods the warehouse has none of get no pick: said here, not left out silently.
  const lacking = m.slots.filter((s) => short.has(s.sku_id) && !m.picks.some((p) => p.slot_id === s.slot_id));
  const id = `machine-${m.location_id}`;
  const units = m.picks.reduce((t, p) => t + p.units, 0);
  return (
    <section class="machine-stop" aria-labelledby={id}>
      <h3 id={id}>
        <a href={href('machine', m.location_id)}>{m.name}</a>
      </h3>
      <p class="muted">
        {m.sold_out_slots > 0 ? `${m.sold_out_slots} sold out; ` : ''}loses {fenText(m.lost_if_skipped_fen)} if skipped; bring {units} units to last {days(m.cycle_days)}, until the next visit.
      </p>
      {m.picks.length === 0 ? (
        <Empty>Nothing to bring: check the machine.</Empty>
      ) : (
        <table class="cards picks" aria-label={`What to bring to ${m.name}`}>
          <thead>
            <tr>
              <th scope="col">Slot</th>
              <th scope="col">Bring</th>
              <th scope="col">Stock now</th>
              <th scope="col">Fill to</th>
            </tr>
          </thead>
          <tbody>
            {m.picks.map((p) => {
              const slot = m.slots.find((s) => s.slot_id === p.slot_id);
              return (
                <tr key={p.slot_id}>
                  <th scope="row">
                    <span class="pos">{p.position}</span> {p.title}
                  </th>
                  <td data-label="Bring">
                    <strong>{p.units}</strong>
                    {p.short > 0 && <span class="warn"> ({p.short} more wanted: not in the warehouse)</span>}
                  </td>
                  <td data-label="Stock now">
                    {p.stock}
                    {slot?.capacity != null ? ` of ${slot.capacity}` : ''}
                  </td>
                  <td data-label="Fill to">{p.fill_to}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {lacking.length > 0 && (
        <p class="short">
          <strong>Not in the warehouse, nothing to bring:</strong>{' '}
          {lacking.map((s) => `${s.position} ${s.title} (stock ${s.stock}${s.capacity != null ? ` of ${s.capacity}` : ''})`).join('; ')}.
        </p>
      )}
      {recording ? (
        <VisitForm
          machine={m}
          onClose={() => setRecording(false)}
          onRecorded={(v) => {
            setRecording(false);
            onRecorded(v);
          }}
        />
      ) : (
        <button type="button" class="primary" onClick={() => setRecording(true)}>
          Record the visit to {m.name}…
        </button>
      )}
    </section>
  );
}
