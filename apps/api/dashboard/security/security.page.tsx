import type { Children } from '@kitajs/html';
import type { DashboardSession, SignedIn } from '#app/accounts';
import { Field } from '../components/field.js';
import { Form } from '../components/form.js';
import { Layout } from '../components/layout.js';
import { Table } from '../components/table.js';
import type { PageContext } from '../common/dashboard-request.js';
import type { ReauthPrompt } from '../common/reauth.js';
import { ReauthFields } from '../common/reauth-field.js';

function when(date: Date): string {
  return `${date.toISOString().replace('T', ' ').slice(0, 16)} UTC`;
}

/** A short name for a browser from its user agent, enough to tell sessions apart. */
export function browserName(userAgent: string): string {
  const known = /(Edg|OPR|Firefox|Chrome|Chromium|Safari)\/[\d.]+/.exec(userAgent);
  if (!known) {
    return userAgent === '' ? 'Unknown browser' : userAgent.slice(0, 60);
  }
  const os = /(Windows|Mac OS X|Android|iPhone|Linux)/.exec(userAgent)?.[1];
  return os ? `${known[0]} on ${os}` : known[0];
}

/**
 * The Security page: the user's sessions with "End session", the password change, and any
 * sections other parts add (second factors: `sections`).
 */
export function SecurityPage({
  ctx,
  signedIn,
  sessions,
  reauth,
  sections,
}: {
  ctx: PageContext;
  signedIn: SignedIn;
  sessions: readonly DashboardSession[];
  /** What the password change asks to confirm who the person is (nothing within 5 minutes). */
  reauth: ReauthPrompt;
  sections?: Children;
}): JSX.Element {
  return (
    <Layout ctx={ctx} title="Security">
      <h1>Security</h1>
      <h2>Your sessions</h2>
      <Table
        caption="Where you are signed in"
        rows={sessions}
        empty="No sessions."
        columns={[
          {
            header: 'Browser',
            text: (session) =>
              `${browserName(session.userAgent)}${session.id === signedIn.session.id ? ' (this session)' : ''}`,
          },
          { header: 'Address', text: (session) => session.ip },
          { header: 'Signed in', text: (session) => when(session.createdAt) },
          { header: 'Last active', text: (session) => when(session.lastSeenAt) },
          {
            header: 'Action',
            cell: (session) => (
              <Form
                ctx={ctx}
                action={`/partner/security/sessions/${session.id}/end`}
                label="End session"
              >
                <button type="submit" class="secondary">
                  End session
                </button>
              </Form>
            ),
          },
        ]}
      />
      <h2>Change password</h2>
      <div class="panel">
        <Form ctx={ctx} action="/partner/security/password" label="Change password">
          <input
            type="hidden"
            name="username"
            value={signedIn.user.email}
            autocomplete="username"
          />
          <ReauthFields prompt={reauth} returnTo="/partner/security" label="Current password" />
          <Field
            label="New password"
            name="newPassword"
            type="password"
            autocomplete="new-password"
            hint="At least 12 characters, not a common password. Your other sessions end."
            required
          />
          <button type="submit">Change password</button>
        </Form>
      </div>
      {sections ?? ''}
    </Layout>
  );
}
