import { Decimal } from 'decimal.js';
import type { PartnerEvent } from '#app/events';
import { SWAP_CSV_FIELDS, type SwapView } from '#app/swaps';
import type { TestHelperStatus } from '#app/test-mode';
import type { SwapDeliveryView } from '#app/webhooks';
import { Field, SelectField } from '../components/field.js';
import { Form } from '../components/form.js';
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

/** What the test helpers offer on a test swap's page. */
export interface TestHelperForms {
  /** The swap is waiting: a deposit can be simulated. */
  deposit: boolean;
  /** The statuses it can be forced into (none once it is over). */
  statuses: TestHelperStatus[];
}

/**
 * The test helpers as buttons, each a form to the same service as `/v1/test_helpers`: a
 * deposit of the expected amount, a short one, a late one, and any status the swap can take.
 */
function TestHelpers({
  ctx,
  swap,
  forms,
}: {
  ctx: PageContext;
  swap: SwapView;
  forms: TestHelperForms;
}): JSX.Element {
  const base = `/partner/swaps/${encodeURIComponent(swap.id)}/test-helpers`;
  const half = new Decimal(swap.amountFrom).div(2).toDecimalPlaces(8, Decimal.ROUND_DOWN).toFixed();
  return (
    <section class="panel" aria-labelledby="helpers-heading">
      <h2 id="helpers-heading">Test helpers</h2>
      <p class="muted">
        They do what <code class="mono">/v1/test_helpers</code> does, against the sandbox: after a
        deposit the swap moves on to <code class="mono">finished</code> by itself within seconds,
        and "Force status" tries any other outcome.
      </p>
      {forms.deposit ? (
        <div class="actions helpers">
          <Form ctx={ctx} action={`${base}/deposit`} label="Simulate deposit">
            <input type="hidden" name="kind" value="full" />
            <button type="submit">Simulate deposit</button>
          </Form>
          <Form ctx={ctx} action={`${base}/deposit`} label="Short deposit" class="inline-field">
            <input type="hidden" name="kind" value="short" />
            <Field
              label={`Amount received (${swap.from})`}
              name="amount"
              value={half}
              inputmode="decimal"
              maxlength={40}
              required
            />
            <button type="submit" class="secondary">
              Short deposit
            </button>
          </Form>
          <Form ctx={ctx} action={`${base}/deposit`} label="Late deposit">
            <input type="hidden" name="kind" value="late" />
            <button type="submit" class="secondary">
              Late deposit
            </button>
          </Form>
        </div>
      ) : (
        ''
      )}
      {forms.statuses.length > 0 ? (
        <Form ctx={ctx} action={`${base}/status`} label="Force a status" class="inline-field">
          <SelectField
            label="New status"
            name="status"
            options={forms.statuses.map((status) => ({ value: status, label: status }))}
          />
          <button type="submit" class="secondary">
            Force status
          </button>
        </Form>
      ) : (
        <p class="muted">This swap is over: no helper can move it any more.</p>
      )}
    </section>
  );
}

/** One swap: every field as the API names it, its event history and those events' deliveries. */
export function SwapPage({
  ctx,
  swap,
  events,
  deliveries,
  testHelpers,
}: {
  ctx: PageContext;
  swap: SwapView;
  events: PartnerEvent[];
  deliveries: SwapDeliveryView[];
  /** A test swap's helpers, for an owner or a developer. */
  testHelpers?: TestHelperForms;
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
      {testHelpers ? <TestHelpers ctx={ctx} swap={swap} forms={testHelpers} /> : ''}
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
