import { EVENT_TYPES, type EventType } from '#app/events';
import { WEBHOOK_ENDPOINT_RULES, type AttemptRow, type WebhookEndpointView } from '#app/webhooks';
import { Field } from '../components/field.js';
import { FormError } from '../components/flash.js';
import { Form } from '../components/form.js';
import { Layout } from '../components/layout.js';
import { CopyScript, SecretNotice, When } from '../components/secret.js';
import { Table } from '../components/table.js';
import type { PageContext } from '../common/dashboard-request.js';

/** What the endpoint form holds: as typed, so a refused form comes back as it was. */
export interface EndpointValues {
  url: string;
  description: string;
  events: readonly EventType[];
  enabled: boolean;
}

export type EndpointErrors = Partial<Record<'url' | 'description' | 'events', string>>;

export function endpointPath(id: string): string {
  return `/partner/webhooks/${encodeURIComponent(id)}`;
}

/** URL, description and event types (and, when editing, enabled): shared by create and edit. */
function EndpointFields({
  values,
  errors,
  editing,
}: {
  values: EndpointValues;
  errors: EndpointErrors;
  editing: boolean;
}): JSX.Element {
  return (
    <>
      <Field
        label="URL"
        name="url"
        type="url"
        value={values.url}
        error={errors.url}
        maxlength={WEBHOOK_ENDPOINT_RULES.urlMaxLength}
        required
        hint="https:// and a public host; test mode also takes http://."
      />
      <Field
        label="Description"
        name="description"
        value={values.description}
        error={errors.description}
        maxlength={WEBHOOK_ENDPOINT_RULES.descriptionMaxLength}
      />
      <fieldset class="field">
        <legend>Event types</legend>
        {EVENT_TYPES.map((type) => (
          <div>
            <input
              type="checkbox"
              id={`event-${type}-${editing ? 'edit' : 'new'}`}
              name={`event:${type}`}
              value="on"
              checked={values.events.includes(type)}
            />
            <label for={`event-${type}-${editing ? 'edit' : 'new'}`}>{type}</label>
          </div>
        ))}
        {errors.events ? (
          <p class="error" safe>
            {errors.events}
          </p>
        ) : (
          ''
        )}
      </fieldset>
      {editing ? (
        <div class="field">
          <input
            type="checkbox"
            id="endpoint-enabled"
            name="enabled"
            value="on"
            checked={values.enabled}
          />
          <label for="endpoint-enabled">Enabled</label>
        </div>
      ) : (
        ''
      )}
    </>
  );
}

export interface WebhooksView {
  endpoints: readonly WebhookEndpointView[];
  canManage: boolean;
  livemode: boolean;
  values: EndpointValues;
  errors: EndpointErrors;
  formError?: string;
}

/** The endpoints of the current mode and, for owners and developers, the form to add one. */
export function WebhooksPage({ ctx, view }: { ctx: PageContext; view: WebhooksView }): JSX.Element {
  const mode = view.livemode ? 'live' : 'test';
  return (
    <Layout ctx={ctx} title="Webhooks">
      <h1>Webhooks</h1>
      <p>
        Each endpoint receives the {mode} events it subscribes to, signed with its own secret
        (Standard Webhooks headers).
      </p>
      <Table<WebhookEndpointView>
        caption={`Your ${mode} endpoints`}
        rows={view.endpoints}
        empty={`No ${mode} endpoints yet.`}
        columns={[
          {
            header: 'URL',
            cell: (endpoint) => (
              <a href={endpointPath(endpoint.id)} safe>
                {endpoint.url}
              </a>
            ),
          },
          { header: 'Description', text: (endpoint) => endpoint.description ?? '' },
          { header: 'Event types', text: (endpoint) => endpoint.events.join(', ') },
          { header: 'State', text: (endpoint) => (endpoint.enabled ? 'Enabled' : 'Disabled') },
          { header: 'Created', cell: (endpoint) => <When at={endpoint.createdAt} /> },
        ]}
      />
      {view.canManage ? (
        <section class="panel" aria-labelledby="add-heading">
          <h2 id="add-heading">Add an endpoint</h2>
          <Form ctx={ctx} action="/partner/webhooks" label="Add endpoint">
            <FormError message={view.formError} />
            <EndpointFields values={view.values} errors={view.errors} editing={false} />
            <button type="submit">Add endpoint</button>
          </Form>
        </section>
      ) : (
        ''
      )}
    </Layout>
  );
}

export interface EndpointView {
  endpoint: WebhookEndpointView;
  attempts: readonly AttemptRow[];
  /** There are older attempts than the last one shown. */
  hasOlder: boolean;
  /** The page starts below the newest attempt (`before` was given). */
  paged: boolean;
  canManage: boolean;
  /** The signing secret, in the answer that created or rotated it only. */
  secret?: { kind: 'created' | 'rotated'; value: string };
  values: EndpointValues;
  errors: EndpointErrors;
  formError?: string;
}

function attemptResult(attempt: AttemptRow): string {
  if (attempt.httpStatus !== null) {
    return `HTTP ${attempt.httpStatus}`;
  }
  return attempt.error ?? 'No answer';
}

/** One endpoint: its settings, its secret when just made, its actions and its attempts. */
export function EndpointPage({ ctx, view }: { ctx: PageContext; view: EndpointView }): JSX.Element {
  const { endpoint } = view;
  const path = endpointPath(endpoint.id);
  const last = view.attempts.at(-1);
  return (
    <Layout ctx={ctx} title="Webhook endpoint">
      <p>
        <a href="/partner/webhooks">All endpoints</a>
      </p>
      <h1>Webhook endpoint</h1>
      <dl class="facts">
        <dt>URL</dt>
        <dd class="mono" safe>
          {endpoint.url}
        </dd>
        <dt>Id</dt>
        <dd class="mono" safe>
          {endpoint.id}
        </dd>
        <dt>Description</dt>
        <dd safe>{endpoint.description ?? ''}</dd>
        <dt>Event types</dt>
        <dd safe>{endpoint.events.join(', ')}</dd>
        <dt>State</dt>
        <dd>{endpoint.enabled ? 'Enabled' : 'Disabled'}</dd>
        <dt>Created</dt>
        <dd>
          <When at={endpoint.createdAt} />
        </dd>
      </dl>
      {view.secret ? (
        <SecretNotice
          title={view.secret.kind === 'created' ? 'Endpoint added' : 'Secret rotated'}
          label="Signing secret"
          secret={view.secret.value}
        >
          <p>
            {view.secret.kind === 'created'
              ? 'Copy the signing secret now: it is shown once.'
              : 'Copy the new signing secret now: it is shown once. For 24 hours every webhook is signed with both the old and the new secret, so switch your receiver over within that time.'}
          </p>
        </SecretNotice>
      ) : (
        ''
      )}
      {view.canManage ? (
        <section class="panel" aria-labelledby="actions-heading">
          <h2 id="actions-heading">Actions</h2>
          <div class="actions">
            <Form ctx={ctx} action={`${path}/test`} label="Send test event">
              <button type="submit">Send test event</button>
            </Form>
            <Form ctx={ctx} action={`${path}/rotate-secret`} label="Rotate secret">
              <button type="submit" class="secondary">
                Rotate secret
              </button>
            </Form>
            <Form
              ctx={ctx}
              action={`${path}/${endpoint.enabled ? 'disable' : 'enable'}`}
              label={endpoint.enabled ? 'Disable' : 'Enable'}
            >
              <button type="submit" class="secondary">
                {endpoint.enabled ? 'Disable' : 'Enable'}
              </button>
            </Form>
            <Form ctx={ctx} action={`${path}/delete`} label="Delete">
              <button type="submit" class="danger">
                Delete
              </button>
            </Form>
          </div>
        </section>
      ) : (
        ''
      )}
      <section aria-labelledby="attempts-heading">
        <h2 id="attempts-heading">Delivery attempts</h2>
        <Table<AttemptRow>
          caption="Delivery attempts, newest first"
          rows={view.attempts}
          empty="No delivery attempts yet."
          columns={[
            { header: 'Time', cell: (attempt) => <When at={attempt.createdAt} /> },
            {
              header: 'Event',
              cell: (attempt) => (
                <a
                  href={`/partner/events/${encodeURIComponent(attempt.eventId)}`}
                  class="mono"
                  safe
                >
                  {attempt.eventId}
                </a>
              ),
            },
            { header: 'Attempt', text: (attempt) => String(attempt.attempt) },
            { header: 'Result', text: attemptResult },
            { header: 'Duration', text: (attempt) => `${attempt.durationMs} ms` },
            ...(view.canManage
              ? [
                  {
                    header: 'Resend',
                    cell: (attempt: AttemptRow) => (
                      <Form ctx={ctx} action={`${path}/resend`} label={`Resend ${attempt.eventId}`}>
                        <input type="hidden" name="eventId" value={attempt.eventId} />
                        <button type="submit" class="secondary">
                          Resend
                        </button>
                      </Form>
                    ),
                  },
                ]
              : []),
          ]}
        />
        <nav class="pager" aria-label="Attempt pages">
          {view.paged ? <a href={path}>Newest attempts</a> : ''}
          {view.hasOlder && last ? (
            <a href={`${path}?before=${encodeURIComponent(last.id)}`}>Older attempts</a>
          ) : (
            ''
          )}
        </nav>
      </section>
      {view.canManage ? (
        <section class="panel" aria-labelledby="edit-heading">
          <h2 id="edit-heading">Edit</h2>
          <Form ctx={ctx} action={path} label="Edit endpoint">
            <FormError message={view.formError} />
            <EndpointFields values={view.values} errors={view.errors} editing />
            <button type="submit">Save changes</button>
          </Form>
        </section>
      ) : (
        ''
      )}
      <CopyScript />
    </Layout>
  );
}
