/**
 * The daily settled sales chart from `GET /sales/daily` (summed by the service; no day after today). The x axis is
 * one tick per +08:00 day (fewer on a narrow screen, never between days), the y axis and the legend in yuan. uPlot
 * is loaded on demand so it is not part of the first load.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, call } from '../api';
import { fenText, orders, yuan } from '../format';
import { Loaded, useLiveReload, useLoad } from '../ui';

export function DailyChart({ location, from, to }: { location: string; from: string; to: string }) {
  const [series, reload] = useLoad(
    () => call(api.GET('/ucp/v1/sales/daily', { params: { query: { ...(location ? { location } : {}), ...(from ? { from } : {}), ...(to ? { to } : {}) } } })),
    [location, from, to],
  );
  useLiveReload(reload, ['sync.', 'sale.settled']);
  return (
    <Loaded load={series} what="the daily sales">
      {(s) => (
        <>
          <dl class="totals" aria-label="Settled sales">
            <div>
              <dt>Today</dt>
              <dd>{yuan(s.today.total)}</dd>
              <dd class="muted">{orders(s.today.orders)}</dd>
            </div>
            <div>
              <dt>Last 7 days</dt>
              <dd>{yuan(s.last_7_days.total)}</dd>
              <dd class="muted">{orders(s.last_7_days.orders)}</dd>
            </div>
            <div>
              <dt>
                {s.days[0]?.day} to {s.days[s.days.length - 1]?.day}
              </dt>
              <dd>{yuan(s.range_total.total)}</dd>
              <dd class="muted">{orders(s.range_total.orders)}</dd>
            </div>
          </dl>
          <figure class="chart">
            <figcaption>Settled sales per day</figcaption>
            <Plot days={s.days.map((d) => d.day)} fen={s.days.map((d) => d.total.amount)} />
            <details>
              <summary>Daily totals as a table</summary>
              <table>
                <tbody>
                  {s.days.map((d) => (
                    <tr key={d.day}>
                      <th scope="row">{d.day}</th>
                      <td>{yuan(d.total)}</td>
                      <td>{orders(d.orders)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </details>
          </figure>
        </>
      )}
    </Loaded>
  );
}

function Plot({ days, fen }: { days: string[]; fen: number[] }) {
  const el = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    let chart: { destroy(): void } | null = null;
    let live = true;
    Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')]).then(
      ([{ default: UPlot }]) => {
        if (!live || !el.current) return;
        const width = Math.max(280, el.current.clientWidth || 600);
        const day = (i: number) => (days[Math.round(i)] ?? '').slice(5);
        chart = new UPlot(
          {
            width,
            height: 220,
            // The x scale is the day's index: ticks fall on whole days only (every day, or every 2nd or 7th when narrow).
            scales: { x: { time: false } },
            axes: [
              { incrs: [1, 2, 7, 14, 28], values: (_u: unknown, v: number[]) => v.map(day) },
              { size: 84, values: (_u: unknown, v: number[]) => v.map((x) => fenText(Math.round(x * 100)).replace(/\.00$/, '')) },
            ],
            series: [
              { label: 'Day', value: (_u: unknown, i: number | null) => (i === null ? '—' : (days[Math.round(i)] ?? '—')) },
              { label: 'Settled', stroke: '#1f6feb', fill: 'rgba(31,111,235,0.12)', width: 2, value: (_u: unknown, v: number | null) => (v === null ? '—' : fenText(Math.round(v * 100))) },
            ],
          },
          [days.map((_d, i) => i), fen.map((f) => f / 100)],
          el.current,
        );
      },
      (e: unknown) => setFailed(String((e as Error).message)),
    );
    return () => {
      live = false;
      chart?.destroy();
    };
  }, [days, fen]);
  if (failed) return <p class="note">The chart could not load ({failed}); the table below has the figures.</p>;
  return <div ref={el} class="plot" role="img" aria-label={`Settled sales per day, ${days[0] ?? ''} to ${days[days.length - 1] ?? ''}`} />;
}
