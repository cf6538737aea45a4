import type { CredentialState, CredentialSummary, RollOverlap } from '#app/partners';
import { Field, SelectField } from '../components/field.js';
import { FormError, Notice } from '../components/flash.js';
import { Form } from '../components/form.js';
import { Layout } from '../components/layout.js';
import { CopyButton, CopyScript, SecretNotice, When } from '../components/secret.js';
import { Table } from '../components/table.js';
import type { PageContext } from '../common/dashboard-request.js';
import type { ReauthPrompt } from '../common/reauth.js';
import { ReauthFields } from '../common/reauth-field.js';

export const OVERLAP_OPTIONS: readonly { value: RollOverlap; label: string }[] = [
  { value: 'now', label: 'Expire the old key now' },
  { value: '1h', label: 'Keep the old key 1 hour' },
  { value: '24h', label: 'Keep the old key 24 hours' },
  { value: '7d', label: 'Keep the old key 7 days' },
];

/** A secret this answer shows once: a key just created or rolled, or one revealed. */
export interface ShownSecret {
  kind: 'created' | 'rolled' | 'revealed';
  publicKey: string;
  secret: string;
  /** For a roll: the key it replaced and when that one stops working. */
  replaced?: { publicKey: string; expiresAt: Date | null };
}

export interface ApiKeysView {
  keys: readonly CredentialSummary[];
  /** Owner or developer: the forms and buttons; a viewer gets none of them. */
  canManage: boolean;
  /** What "Reveal secret" asks to confirm who the person is (nothing within 5 minutes). */
  reauth: ReauthPrompt;
  /** Keys of this mode can be created now (live keys need an active organization). */
  canIssue: boolean;
  /** Why they cannot, when they cannot. */
  blockedReason?: string;
  livemode: boolean;
  shown?: ShownSecret;
  /** The "Name" typed, when the form is shown again with an error. */
  name?: string;
  nameError?: string | null;
  /** A refused action on one key (a wrong password or code for "Reveal secret"). */
  keyError?: { publicKey: string; message: string };
}

function stateText(state: CredentialState): JSX.Element {
  switch (state.kind) {
    case 'active':
      return <span>Active</span>;
    case 'expiring':
      return (
        <span>
          Expires <When at={state.at} />
        </span>
      );
    case 'expired':
      return (
        <span>
          Expired <When at={state.at} />
        </span>
      );
    case 'revoked':
      return (
        <span>
          Revoked <When at={state.at} />
        </span>
      );
  }
}

function KeyActions({
  ctx,
  view,
  credential,
}: {
  ctx: PageContext;
  view: ApiKeysView;
  credential: CredentialSummary;
}): JSX.Element {
  const base = `/partner/api-keys/${encodeURIComponent(credential.publicKey)}`;
  const { kind } = credential.state;
  if (kind === 'revoked' || kind === 'expired') {
    return <span class="muted">None</span>;
  }
  const error =
    view.keyError?.publicKey === credential.publicKey ? view.keyError.message : undefined;
  return (
    <div class="actions">
      <Form ctx={ctx} action={`${base}/reveal`} label={`Reveal secret of ${credential.publicKey}`}>
        <FormError message={error} />
        <ReauthFields prompt={view.reauth} returnTo="/partner/api-keys" />
        <button type="submit">Reveal secret</button>
      </Form>
      {kind === 'active' && view.canIssue ? (
        <Form ctx={ctx} action={`${base}/roll`} label={`Roll ${credential.publicKey}`}>
          <SelectField label="Overlap" name="overlap" options={OVERLAP_OPTIONS} selected="24h" />
          <button type="submit" class="secondary">
            Roll
          </button>
        </Form>
      ) : (
        ''
      )}
      <Form ctx={ctx} action={`${base}/revoke`} label={`Revoke ${credential.publicKey}`}>
        <button type="submit" class="danger">
          Revoke
        </button>
      </Form>
    </div>
  );
}

function Shown({ shown }: { shown: ShownSecret }): JSX.Element {
  const titles = {
    created: 'Your new key',
    rolled: 'Your replacement key',
    revealed: 'The secret you asked for',
  } as const;
  return (
    <SecretNotice title={titles[shown.kind]} label="Secret" secret={shown.secret}>
      <p>
        Public key{' '}
        <code class="mono" safe>
          {shown.publicKey}
        </code>
        .{' '}
        {shown.kind === 'revealed'
          ? 'Revealing it was written to the audit log and the owners were told.'
          : 'Copy the secret now: this page shows it this once. Later, "Reveal secret" shows it again after you confirm it is you; each reveal is audited and the owners are told.'}{' '}
        Send both as <code class="mono">Authorization: Bearer public_key:secret</code> from your
        server, never from a browser.
      </p>
      {shown.replaced ? (
        <p>
          The old key{' '}
          <code class="mono" safe>
            {shown.replaced.publicKey}
          </code>{' '}
          {shown.replaced.expiresAt && shown.replaced.expiresAt > new Date() ? (
            <>
              keeps working until <When at={shown.replaced.expiresAt} />.
            </>
          ) : (
            'no longer works.'
          )}
        </p>
      ) : (
        ''
      )}
    </SecretNotice>
  );
}

/** The API keys page: the organization's keys in the current mode and what may be done with them. */
export function ApiKeysPage({ ctx, view }: { ctx: PageContext; view: ApiKeysView }): JSX.Element {
  const mode = view.livemode ? 'live' : 'test';
  return (
    <Layout ctx={ctx} title="API keys">
      <h1>API keys</h1>
      <p>
        {view.livemode
          ? 'Live keys move real funds.'
          : 'Test keys work against the sandbox and move nothing.'}{' '}
        Each key is a public key and a secret; the public key is always shown here.
      </p>
      {view.shown ? <Shown shown={view.shown} /> : ''}
      <Table<CredentialSummary>
        caption={`Your ${mode} keys`}
        rows={view.keys}
        empty={`No ${mode} keys yet.`}
        columns={[
          { header: 'Name', text: (key) => key.name ?? '(unnamed)' },
          {
            header: 'Public key',
            cell: (key) => (
              <span>
                <code class="mono" safe>
                  {key.publicKey}
                </code>{' '}
                <CopyButton value={key.publicKey} what={`public key ${key.publicKey}`} />
              </span>
            ),
          },
          { header: 'Created', cell: (key) => <When at={key.createdAt} /> },
          { header: 'Last used', cell: (key) => <When at={key.lastUsedAt} /> },
          { header: 'State', cell: (key) => stateText(key.state) },
          ...(view.canManage
            ? [
                {
                  header: 'Actions',
                  cell: (key: CredentialSummary) => (
                    <KeyActions ctx={ctx} view={view} credential={key} />
                  ),
                },
              ]
            : []),
        ]}
      />
      {view.canManage && view.canIssue ? (
        <section class="panel" aria-labelledby="create-heading">
          <h2 id="create-heading">Create a {mode} key</h2>
          <Form ctx={ctx} action="/partner/api-keys" label="Create key">
            <Field
              label="Name"
              name="name"
              value={view.name}
              error={view.nameError}
              maxlength={100}
              required
              hint="Where it will be used, e.g. Production server."
            />
            <button type="submit">Create key</button>
          </Form>
        </section>
      ) : (
        ''
      )}
      {view.canManage && !view.canIssue ? (
        <Notice title="No new keys for now">
          <p safe>{view.blockedReason ?? ''}</p>
        </Notice>
      ) : (
        ''
      )}
      <CopyScript />
    </Layout>
  );
}
