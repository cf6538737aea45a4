import type { PartnerEvent } from '#app/events';
import { SWAP_CSV_FIELDS, type SwapView } from '#app/swaps';
import type { SwapDeliveryView } from '#app/webhooks';
import { Layout } from '../components/layout.js';
import { Table, type Column } from '../components/table.js';
import type { PageContext } from '../common/dashboard-request.js';
import { when } from '../data/formats.js';

const EVENT_COLUMNS: Column<PartnerEvent>[] = [
  { header: 'Time', text: (event) => when(event.createdAt) },
  { header: 'Event', text: (event) => event.type },
  {
    header: 'Status',
    text: (event) =>
      event.data.previousStatus === null
        ? event.data.swap.status
        : `${event.data.previousStatus} → ${event.data.swap.status}`,
  },
  {
    header: 'Event id',
    cell: (event) => (
      <a href={`/partner/events/${encodeURIComponent(event.id)}`} class="mono" safe>
        {event.id}
      </a>
    ),
  },
];

function lastAttempt(delivery: SwapDeliveryView): string {
  if (delivery.lastAttemptAt === null) {
    return 'Not tried yet';
  }
  const outcome =
    delivery.lastHttpStatus !== null
      ? `HTTP ${delivery.lastHttpStatus}`
      : (delivery.lastError ?? 'no answer');
  return `${when(delivery.lastAttemptAt)}: ${outcome}`;
}

const DELIVERY_COLUMNS: Column<SwapDeliveryView>[] = [
  { header: 'Event', text: (d) => `${d.eventType} (${d.eventId})` },
  {
    header: 'Endpoint',
    cell: (d) => (
      <span class="mono" safe>
        {d.url}
      </span>
    ),
  },
  { header: 'Delivery', text: (d) => d.status },
  { header: 'Attempts', text: (d) => String(d.attempts) },
  { header: 'Last attempt', text: lastAttempt },
  { header: 'Next attempt', text: (d) => (d.nextAttemptAt === null ? '—' : when(d.nextAttemptAt)) },
];

function value(swap: SwapView, field: keyof SwapView): string {
  const v = swap[field];
  return v === null ? '—' : String(v);
}

/** One swap: every field as the API names it, its event history and those events' deliveries. */
export function SwapPage({
  ctx,
  swap,
  events,
  deliveries,
}: {
  ctx: PageContext;
  swap: SwapView;
  events: PartnerEvent[];
  deliveries: SwapDeliveryView[];
}): JSX.Element {
  return (
    <Layout ctx={ctx} title={`Swap ${swap.id}`}>
      <p>
        <a href="/partner/swaps">All swaps</a>
      </p>
      <h1 safe>{`Swap ${swap.id}`}</h1>
      <section class="panel" aria-labelledby="fields-heading">
        <h2 id="fields-heading">Fields</h2>
        <dl class="facts">
          {SWAP_CSV_FIELDS.map((field) => (
            <>
              <dt>{field}</dt>
              <dd class="mono" safe>
                {value(swap, field)}
              </dd>
            </>
          ))}
        </dl>
      </section>
      <section aria-labelledby="events-heading">
        <h2 id="events-heading">Event history</h2>
        <Table
          caption="Events of this swap, oldest first"
          columns={EVENT_COLUMNS}
          rows={events}
          empty="No events recorded for this swap."
        />
      </section>
      <section aria-labelledby="deliveries-heading">
        <h2 id="deliveries-heading">Webhook deliveries</h2>
        <Table
          caption="Deliveries of this swap's events to your webhook endpoints"
          columns={DELIVERY_COLUMNS}
          rows={deliveries}
          empty="No webhook deliveries for this swap's events (no endpoint was subscribed, or they were purged after 30 days)."
        />
      </section>
    </Layout>
  );
}
