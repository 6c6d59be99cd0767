/** The daily settled sales chart; uPlot is loaded on demand so it is not part of the first load. */
import { useEffect, useRef, useState } from 'preact/hooks';
import { yuan } from '../format';
import { Loaded, useLoad } from '../ui';
import { dailySettled } from './Sales';

export function DailyChart({ location, from, to }: { location: string; from: string; to: string }) {
  const [series] = useLoad(() => dailySettled(location, from, to), [location, from, to]);
  return (
    <figure class="chart">
      <figcaption>Settled sales per day (+08:00)</figcaption>
      <Loaded load={series} what="the daily sales">
        {(s) => (
          <>
            <Plot days={s.days} fen={s.fen} />
            <details>
              <summary>Daily totals as a table</summary>
              <table>
                <tbody>
                  {s.days.map((d, i) => (
                    <tr key={d}>
                      <th scope="row">{d}</th>
                      <td>{yuan({ amount: s.fen[i] ?? 0 })}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </details>
            {s.partial && <p class="note">Only the first 2,000 orders of the range are charted.</p>}
          </>
        )}
      </Loaded>
    </figure>
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
        const width = Math.max(300, el.current.clientWidth || 600);
        chart = new UPlot(
          {
            width,
            height: 220,
            scales: { x: { time: true } },
            axes: [{}, { values: (_u: unknown, v: number[]) => v.map((x) => `¥${x}`) }],
            series: [{}, { label: 'Settled (¥)', stroke: '#1f6feb', fill: 'rgba(31,111,235,0.12)', width: 2 }],
          },
          [days.map((d) => new Date(`${d}T00:00:00+08:00`).getTime() / 1000), fen.map((f) => f / 100)],
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
