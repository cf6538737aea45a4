import { DASHBOARD_ROLES, type DashboardUser, type Invitation, type SignedIn } from '#app/accounts';
import { Field, SelectField } from '../components/field.js';
import { Form } from '../components/form.js';
import { Layout } from '../components/layout.js';
import { Table } from '../components/table.js';
import type { PageContext } from '../common/dashboard-request.js';
import type { ReauthPrompt } from '../common/reauth.js';
import { ReauthFields } from '../common/reauth-field.js';

const ROLE_OPTIONS = DASHBOARD_ROLES.map((role) => ({ value: role, label: role }));

export function TeamPage({
  ctx,
  signedIn,
  users,
  invitations,
  reauth,
}: {
  ctx: PageContext;
  signedIn: SignedIn;
  users: readonly DashboardUser[];
  invitations: readonly Invitation[];
  /** What team changes ask to confirm who the person is (nothing within 5 minutes). */
  reauth: ReauthPrompt;
}): JSX.Element {
  return (
    <Layout ctx={ctx} title="Team">
      <h1>Team</h1>
      <p>
        Owners can do everything; developers manage keys, webhooks, swaps and events; viewers only
        read. An organization always keeps at least one owner.
        {reauth.needed ? ' Team changes ask you to confirm it is you.' : ''}
      </p>
      <h2>Members</h2>
      <Table
        caption="Members of the organization"
        rows={users}
        empty="No members yet."
        columns={[
          {
            header: 'Email',
            text: (user) =>
              `${user.email}${user.id === signedIn.user.id ? ' (you)' : ''}${user.disabledAt ? ' (disabled)' : ''}`,
          },
          { header: 'Role', text: (user) => user.role },
          { header: 'Member since', text: (user) => user.createdAt.toISOString().slice(0, 10) },
          {
            header: 'Change',
            cell: (user) => (
              <div class="actions">
                <Form
                  ctx={ctx}
                  action={`/partner/team/${user.id}/role`}
                  label={`Change the role of ${user.email}`}
                >
                  <SelectField
                    label={`Role of ${user.email}`}
                    name="role"
                    options={ROLE_OPTIONS}
                    selected={user.role}
                  />
                  <ReauthFields prompt={reauth} returnTo="/partner/team" label="Your password" />
                  <button type="submit" class="secondary">
                    Change role
                  </button>
                </Form>
                <Form
                  ctx={ctx}
                  action={`/partner/team/${user.id}/remove`}
                  label={`Remove ${user.email}`}
                >
                  <ReauthFields prompt={reauth} returnTo="/partner/team" label="Your password" />
                  <button type="submit" class="danger" aria-label={`Remove ${user.email}`}>
                    Remove
                  </button>
                </Form>
              </div>
            ),
          },
        ]}
      />
      <h2>Invite someone</h2>
      <div class="panel">
        <Form ctx={ctx} action="/partner/team/invitations" label="Invite">
          <Field
            label="Email"
            name="email"
            type="email"
            autocomplete="off"
            required
            maxlength={254}
          />
          <SelectField label="Role" name="role" options={ROLE_OPTIONS} selected="developer" />
          <ReauthFields prompt={reauth} returnTo="/partner/team" label="Your password" />
          <button type="submit">Invite</button>
        </Form>
      </div>
      <h2>Open invitations</h2>
      <Table
        caption="Invitations not accepted yet"
        rows={invitations}
        empty="No open invitations."
        columns={[
          { header: 'Email', text: (invitation) => invitation.email },
          { header: 'Role', text: (invitation) => invitation.role },
          {
            header: 'Expires',
            text: (invitation) =>
              invitation.expiresAt.toISOString().replace('T', ' ').slice(0, 16) + ' UTC',
          },
        ]}
      />
    </Layout>
  );
}
