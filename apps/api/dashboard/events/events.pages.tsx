import { EVENT_TYPES, type PartnerEvent } from '#app/events';
import type { EventDelivery, WebhookEndpointView } from '#app/webhooks';
import { SelectField } from '../components/field.js';
import { Form } from '../components/form.js';
import { Layout } from '../components/layout.js';
import { When } from '../components/secret.js';
import { Table } from '../components/table.js';
import type { PageContext } from '../common/dashboard-request.js';

export function eventPath(id: string): string {
  return `/partner/events/${encodeURIComponent(id)}`;
}

function swapPath(id: string): string {
  return `/partner/swaps/${encodeURIComponent(id)}`;
}

function describe(event: PartnerEvent): string {
  const { swap, previousStatus } = event.data;
  return previousStatus === null ? `Created, ${swap.status}` : `${previousStatus} → ${swap.status}`;
}

export interface EventsView {
  events: readonly PartnerEvent[];
  hasOlder: boolean;
  hasNewer: boolean;
  type?: string;
  livemode: boolean;
}

/** The event feed of the current mode, newest first, in keyset pages. */
export function EventsPage({ ctx, view }: { ctx: PageContext; view: EventsView }): JSX.Element {
  const mode = view.livemode ? 'live' : 'test';
  const typeQuery = view.type ? `&type=${encodeURIComponent(view.type)}` : '';
  const first = view.events.at(0);
  const last = view.events.at(-1);
  return (
    <Layout ctx={ctx} title="Events">
      <h1>Events</h1>
      <p>
        Every change to your {mode} swaps, newest first: what your webhook endpoints receive and
        what <code class="mono">GET /v1/events</code> answers.
      </p>
      <form method="get" action="/partner/events" aria-label="Filter events">
        <SelectField
          label="Type"
          name="type"
          options={[
            { value: '', label: 'All types' },
            ...EVENT_TYPES.map((type) => ({ value: type, label: type })),
          ]}
          selected={view.type ?? ''}
        />
        <button type="submit" class="secondary">
          Filter
        </button>
      </form>
      <Table<PartnerEvent>
        caption={`Your ${mode} events, newest first`}
        rows={view.events}
        empty="No events here."
        columns={[
          { header: 'Time', cell: (event) => <When at={event.createdAt} /> },
          {
            header: 'Event',
            cell: (event) => (
              <a href={eventPath(event.id)} class="mono" safe>
                {event.id}
              </a>
            ),
          },
          { header: 'Type', text: (event) => event.type },
          {
            header: 'Swap',
            cell: (event) => (
              <a href={swapPath(event.data.swap.id)} class="mono" safe>
                {event.data.swap.id}
              </a>
            ),
          },
          { header: 'Change', text: describe },
        ]}
      />
      <nav class="pager" aria-label="Event pages">
        {view.hasNewer && first ? (
          <a href={`/partner/events?after=${encodeURIComponent(first.id)}${typeQuery}`}>
            Newer events
          </a>
        ) : (
          ''
        )}
        {view.hasOlder && last ? (
          <a href={`/partner/events?before=${encodeURIComponent(last.id)}${typeQuery}`}>
            Older events
          </a>
        ) : (
          ''
        )}
      </nav>
    </Layout>
  );
}

function deliveryResult(delivery: EventDelivery): string {
  if (delivery.lastHttpStatus !== null) {
    return `HTTP ${delivery.lastHttpStatus}`;
  }
  return delivery.lastError ?? 'Not tried yet';
}

export interface EventView {
  event: PartnerEvent;
  deliveries: readonly EventDelivery[];
  /** The enabled endpoints it can be resent to; empty for viewers. */
  endpoints: readonly WebhookEndpointView[];
  canManage: boolean;
}

/** One event: what it says, its body as sent, and its deliveries to the endpoints. */
export function EventPage({ ctx, view }: { ctx: PageContext; view: EventView }): JSX.Element {
  const { event } = view;
  return (
    <Layout ctx={ctx} title={`Event ${event.id}`}>
      <p>
        <a href="/partner/events">All events</a>
      </p>
      <h1 safe>{`Event ${event.id}`}</h1>
      <dl class="facts">
        <dt>Type</dt>
        <dd>{event.type}</dd>
        <dt>Time</dt>
        <dd>
          <When at={event.createdAt} />
        </dd>
        <dt>Swap</dt>
        <dd>
          <a href={swapPath(event.data.swap.id)} class="mono" safe>
            {event.data.swap.id}
          </a>
        </dd>
        <dt>Change</dt>
        <dd safe>{describe(event)}</dd>
      </dl>
      <section aria-labelledby="deliveries-heading">
        <h2 id="deliveries-heading">Webhook deliveries</h2>
        <Table<EventDelivery>
          caption="Deliveries of this event, newest first"
          rows={view.deliveries}
          empty="No endpoint was sent this event."
          columns={[
            {
              header: 'Endpoint',
              cell: (delivery) => (
                <a href={`/partner/webhooks/${encodeURIComponent(delivery.endpointId)}`} safe>
                  {delivery.url}
                </a>
              ),
            },
            { header: 'Status', text: (delivery) => delivery.status },
            { header: 'Attempts', text: (delivery) => String(delivery.attempts) },
            { header: 'Last result', text: deliveryResult },
            {
              header: 'Asked by',
              text: (delivery) => delivery.resentBy?.replace(/^dashboard:/, '') ?? 'Automatic',
            },
            { header: 'Created', cell: (delivery) => <When at={delivery.createdAt} /> },
          ]}
        />
        {view.canManage && view.endpoints.length > 0 ? (
          <Form ctx={ctx} action={`${eventPath(event.id)}/resend`} label="Resend event">
            <SelectField
              label="Endpoint"
              name="endpointId"
              options={view.endpoints.map((endpoint) => ({
                value: endpoint.id,
                label: endpoint.url,
              }))}
            />
            <button type="submit">Resend</button>
          </Form>
        ) : (
          ''
        )}
      </section>
      <section aria-labelledby="body-heading">
        <h2 id="body-heading">Body</h2>
        <pre class="mono" tabindex="0" aria-label="Event body as JSON" safe>
          {JSON.stringify(event, null, 2)}
        </pre>
      </section>
    </Layout>
  );
}
