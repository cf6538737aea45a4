import { MAX_WIDGET_KEY_NAME_LENGTH, type WidgetKeyView, type WidgetTheme } from '#app/widgets';
import { Field, SelectField, TextAreaField } from '../components/field.js';
import { FormError, Notice } from '../components/flash.js';
import { Form } from '../components/form.js';
import { Layout } from '../components/layout.js';
import { CopyButton, CopyScript, When } from '../components/secret.js';
import { Table } from '../components/table.js';
import type { PageContext } from '../common/dashboard-request.js';

export const PAGE = '/partner/widget';

const THEME_OPTIONS: readonly { value: WidgetTheme; label: string }[] = [
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

/** The "Create widget key" form as typed, with what was wrong, when it is shown again. */
export interface WidgetKeyForm {
  name: string;
  allowedOrigins: string;
  nameError?: string | null;
  originsError?: string | null;
  /** A refusal of the whole form (not one field's). */
  error?: string | null;
}

/** The chosen key shown live in a frame, with its options and the snippet for them. */
export interface WidgetPreview {
  key: WidgetKeyView;
  theme: WidgetTheme;
  /** The accent as typed (shown again in its field). */
  accentText: string;
  accentError: string | null;
  /** The hosted widget's address on this site, with the options. */
  src: string;
  snippet: string;
}

export interface WidgetPageView {
  keys: readonly WidgetKeyView[];
  livemode: boolean;
  /** Owner or developer: the form and the "Revoke" buttons; a viewer gets none of them. */
  canManage: boolean;
  /** Keys of this mode can be created now (live keys need an active organization). */
  canIssue: boolean;
  blockedReason?: string;
  form?: WidgetKeyForm;
  preview?: WidgetPreview;
  /** A revoked key was chosen: it has no preview. */
  revokedChoice?: WidgetKeyView;
}

function previewUrl(key: string): string {
  return `${PAGE}?key=${encodeURIComponent(key)}#preview`;
}

function KeyState({ widgetKey }: { widgetKey: WidgetKeyView }): JSX.Element {
  return widgetKey.revokedAt ? (
    <span>
      Revoked <When at={widgetKey.revokedAt} />
    </span>
  ) : (
    <span>Active</span>
  );
}

function Origins({ origins }: { origins: readonly string[] }): JSX.Element {
  return (
    <ul class="plain">
      {origins.map((origin) => (
        <li>
          <code class="mono" safe>
            {origin}
          </code>
        </li>
      ))}
    </ul>
  );
}

function KeyActions({
  ctx,
  view,
  widgetKey,
}: {
  ctx: PageContext;
  view: WidgetPageView;
  widgetKey: WidgetKeyView;
}): JSX.Element {
  if (widgetKey.revokedAt) {
    return <span class="muted">None</span>;
  }
  const previewed = view.preview?.key.key === widgetKey.key;
  return (
    <div class="actions">
      {previewed ? (
        <a href="#preview">Shown below</a>
      ) : (
        <a href={previewUrl(widgetKey.key)}>
          Preview<span class="visually-hidden" safe>{` ${widgetKey.name}`}</span>
        </a>
      )}
      {view.canManage ? (
        <Form
          ctx={ctx}
          action={`${PAGE}/${encodeURIComponent(widgetKey.key)}/revoke`}
          label={`Revoke ${widgetKey.key}`}
        >
          <button type="submit" class="danger">
            Revoke
          </button>
        </Form>
      ) : (
        ''
      )}
    </div>
  );
}

function CreateForm({
  ctx,
  mode,
  form,
}: {
  ctx: PageContext;
  mode: string;
  form: WidgetKeyForm | undefined;
}): JSX.Element {
  return (
    <section class="panel" aria-labelledby="create-heading">
      <h2 id="create-heading" safe>{`Create a ${mode} widget key`}</h2>
      <Form ctx={ctx} action={PAGE} label="Create widget key">
        <FormError message={form?.error} />
        <Field
          label="Name"
          name="name"
          value={form?.name}
          error={form?.nameError}
          maxlength={MAX_WIDGET_KEY_NAME_LENGTH}
          required
          hint="Where it will be used, e.g. Shop checkout."
        />
        <TextAreaField
          label="Allowed origins"
          name="allowedOrigins"
          value={form?.allowedOrigins}
          error={form?.originsError}
          rows={4}
          required
          hint="One origin per line, 1 to 20, each exactly scheme://host[:port] with http or https (no path, no wildcard), e.g. https://shop.example. Only pages on these origins can show the widget and use its API."
        />
        <button type="submit">Create widget key</button>
      </Form>
    </section>
  );
}

function Preview({ preview }: { preview: WidgetPreview }): JSX.Element {
  const { key } = preview;
  return (
    <section class="panel" id="preview" aria-labelledby="preview-heading">
      <h2 id="preview-heading" safe>{`Preview of ${key.name}`}</h2>
      <p>
        This is the hosted widget itself, as your visitors will see it.{' '}
        {key.mode === 'live'
          ? 'It uses live rates: a swap made here is a real swap.'
          : 'It is a test key: swaps made here are test swaps, and "Simulate deposit" plays one to the end.'}
      </p>
      <form method="get" action={`${PAGE}#preview`} class="filters" aria-label="Preview options">
        <input type="hidden" name="key" value={key.key} />
        <SelectField label="Theme" name="theme" options={THEME_OPTIONS} selected={preview.theme} />
        <Field
          label="Accent colour"
          name="accent"
          value={preview.accentText}
          error={preview.accentError}
          maxlength={7}
          placeholder="#2563eb"
          hint="A hex colour, or empty for the default."
        />
        <div class="field">
          <button type="submit" class="secondary">
            Show preview
          </button>
        </div>
      </form>
      <div class="preview-layout">
        <iframe class="widget-preview" src={preview.src} title="Widget preview" />
        <div>
          <h3>Snippet</h3>
          <p>
            Paste it into a page on one of the key's allowed origins. It loads the pinned version 1
            of the loader with its Subresource Integrity hash, and shows the widget with the options
            chosen above.
          </p>
          <TextAreaField
            label={`Snippet for ${key.name}`}
            id="widget-snippet"
            value={preview.snippet}
            rows={9}
            readonly
            class="mono snippet"
          />
          <p>
            <CopyButton value={preview.snippet} what="snippet" />
          </p>
        </div>
      </div>
    </section>
  );
}

/** The Widget page: the organization's widget keys in the current mode, a live preview, a snippet. */
export function WidgetPage({ ctx, view }: { ctx: PageContext; view: WidgetPageView }): JSX.Element {
  const mode = view.livemode ? 'live' : 'test';
  return (
    <Layout ctx={ctx} title="Widget">
      <h1>Widget</h1>
      <p>
        The swap widget lets visitors of your site swap in your page, without a backend of yours. A
        widget key is publishable, not a secret: its allowed origins and its limits protect it.
        Swaps made in the widget are yours: they show under Swaps, in the events and webhooks, and
        earn your fee.
      </p>
      <Table<WidgetKeyView>
        caption={`Your ${mode} widget keys`}
        rows={view.keys}
        empty={`No ${mode} widget keys yet.`}
        columns={[
          { header: 'Name', text: (key) => key.name },
          {
            header: 'Key',
            cell: (key) => (
              <span>
                <code class="mono" safe>
                  {key.key}
                </code>{' '}
                <CopyButton value={key.key} what={`widget key ${key.key}`} />
              </span>
            ),
          },
          { header: 'Allowed origins', cell: (key) => <Origins origins={key.allowedOrigins} /> },
          { header: 'Created', cell: (key) => <When at={key.createdAt} /> },
          { header: 'State', cell: (key) => <KeyState widgetKey={key} /> },
          {
            header: 'Actions',
            cell: (key) => <KeyActions ctx={ctx} view={view} widgetKey={key} />,
          },
        ]}
      />
      {view.revokedChoice ? (
        <Notice title="No preview">
          <p
            safe
          >{`The widget key ${view.revokedChoice.name} is revoked: the widget no longer loads with it.`}</p>
        </Notice>
      ) : (
        ''
      )}
      {view.canManage && view.canIssue ? <CreateForm ctx={ctx} mode={mode} form={view.form} /> : ''}
      {view.canManage && !view.canIssue ? (
        <Notice title="No new widget keys for now">
          <p safe>{view.blockedReason ?? ''}</p>
        </Notice>
      ) : (
        ''
      )}
      {view.preview ? <Preview preview={view.preview} /> : ''}
      <CopyScript />
    </Layout>
  );
}
