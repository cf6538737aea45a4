import { Decimal } from 'decimal.js';
import type { ActivitySeries, DailyActivity } from '#app/earnings';
import { usd } from '../data/formats.js';

const WIDTH = 720;
const HEIGHT = 180;
/** Room for the axis labels under and left of the bars. */
const LEFT = 56;
const BOTTOM = 24;
const TOP = 8;

const count = new Intl.NumberFormat('en-US');

/** A short day label, `Nov 3`, from `YYYY-MM-DD` (UTC). */
function shortDay(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });
}

interface Series {
  title: string;
  id: string;
  value: (day: DailyActivity) => string;
  label: (value: string) => string;
}

/**
 * One bar chart as SVG, drawn on the server (no script). The bars carry a `<title>` each (a
 * tooltip on hover); the figure is one image to assistive technology, described in words, and
 * the table below it gives every figure.
 */
function BarChart({ days, series }: { days: DailyActivity[]; series: Series }): JSX.Element {
  const values = days.map((d) => new Decimal(series.value(d)));
  // The scale's top is the tallest bar, so its label is a real figure; with no bars, no label.
  const peakValue = Decimal.max(0, ...values);
  const max = peakValue.gt(0) ? peakValue : new Decimal(1);
  const plotWidth = WIDTH - LEFT;
  const plotHeight = HEIGHT - BOTTOM - TOP;
  const step = plotWidth / days.length;
  const barWidth = Math.max(2, step - 4);
  const total = values.reduce((sum, v) => sum.plus(v), new Decimal(0));
  const peak = days[values.findIndex((v) => v.eq(Decimal.max(0, ...values)))] ?? days[0];
  const description =
    `${series.title} over the last ${days.length} days: ${series.label(total.toFixed())} in total` +
    (total.gt(0)
      ? `, the most on ${shortDay(peak.day)} (${series.label(series.value(peak))}).`
      : '.');
  const ticks = [days[0], days[Math.floor(days.length / 2)], days[days.length - 1]];
  return (
    <figure class="chart" aria-labelledby={`${series.id}-caption`}>
      <figcaption id={`${series.id}-caption`} safe>
        {series.title}
      </figcaption>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={description}
        preserveAspectRatio="none"
        focusable="false"
      >
        <line class="axis" x1={LEFT} y1={TOP + plotHeight} x2={WIDTH} y2={TOP + plotHeight} />
        {peakValue.gt(0) ? (
          <text class="tick" x={LEFT - 6} y={TOP + 10} text-anchor="end" safe>
            {series.label(peakValue.toFixed())}
          </text>
        ) : (
          ''
        )}
        <text class="tick" x={LEFT - 6} y={TOP + plotHeight} text-anchor="end">
          0
        </text>
        {days.map((day, i) => {
          const height = values[i].div(max).mul(plotHeight).toDecimalPlaces(1).toNumber();
          return (
            <rect
              class="bar"
              x={(LEFT + i * step + 2).toFixed(1)}
              y={(TOP + plotHeight - height).toFixed(1)}
              width={barWidth.toFixed(1)}
              height={height.toFixed(1)}
            >
              <title safe>{`${shortDay(day.day)}: ${series.label(series.value(day))}`}</title>
            </rect>
          );
        })}
        {ticks.map((day, n) => {
          const i = days.indexOf(day);
          // The first and last labels align with the plot's edges, so neither is cut off.
          const anchor = n === 0 ? 'start' : n === ticks.length - 1 ? 'end' : 'middle';
          const x = n === 0 ? LEFT : n === ticks.length - 1 ? WIDTH : LEFT + i * step + step / 2;
          return (
            <text class="tick" x={x.toFixed(1)} y={HEIGHT - 6} text-anchor={anchor} safe>
              {shortDay(day.day)}
            </text>
          );
        })}
      </svg>
    </figure>
  );
}

/**
 * The overview's 30 days: swaps per day and volume per day, each a chart, and one table with
 * every figure for screen readers (the charts say the same in a sentence each).
 */
export function ActivityCharts({ activity }: { activity: ActivitySeries }): JSX.Element {
  const { days, totals } = activity;
  return (
    <section class="panel" aria-labelledby="activity-heading">
      <h2 id="activity-heading">Last 30 days</h2>
      <dl class="facts">
        <dt>Swaps</dt>
        <dd safe>{count.format(totals.swaps)}</dd>
        <dt>Finished</dt>
        <dd safe>{count.format(totals.finished)}</dd>
        <dt>Volume</dt>
        <dd safe>
          {usd(totals.volumeUsd) +
            (totals.unpricedFinished > 0
              ? ` (and ${count.format(totals.unpricedFinished)} finished swaps without a USD price)`
              : '')}
        </dd>
      </dl>
      <div class="charts">
        <BarChart
          days={days}
          series={{
            title: 'Swaps per day',
            id: 'chart-swaps',
            value: (d) => String(d.swaps),
            label: (v) => `${count.format(Number(v))} ${v === '1' ? 'swap' : 'swaps'}`,
          }}
        />
        <BarChart
          days={days}
          series={{
            title: 'Volume per day (USD)',
            id: 'chart-volume',
            value: (d) => d.volumeUsd,
            label: usd,
          }}
        />
      </div>
      <table class="visually-hidden">
        <caption>Swaps and volume per day, last 30 days</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Swaps</th>
            <th scope="col">Finished</th>
            <th scope="col">Volume (USD)</th>
            <th scope="col">Finished without a USD price</th>
          </tr>
        </thead>
        <tbody>
          {days.map((d) => (
            <tr>
              <th scope="row" safe>
                {d.day}
              </th>
              <td safe>{String(d.swaps)}</td>
              <td safe>{String(d.finished)}</td>
              <td safe>{d.volumeUsd}</td>
              <td safe>{String(d.unpricedFinished)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
