import { jest } from '@jest/globals';
import request from 'supertest';
import {
  APPLICATION_TTL_MS,
  Clock,
  DashboardAccountsService,
  PASSWORD_RESET_TTL_MS,
} from '#app/accounts';
import { waitUntil } from '../support/wait.js';
import {
  createDashboardUser,
  DashboardClient,
  flashOf,
  signedInClient,
  testEmail,
  testPassword,
} from '../support/dashboard.js';
import { type Harness, startHarness } from '../support/harness.js';
import { createOrganization } from '../factories/partners.js';

const RESET_SENT = 'If an account exists for this email, we sent it a link';
/** What every valid application hears, whether or not the address has an account. */
const APPLICATION_SENT = 'We sent a link to the email you gave.';

describe('Dashboard accounts', () => {
  let harness: Harness;
  let url: string;
  let organizationId: string;
  let otherOrganizationId: string;

  beforeAll(async () => {
    harness = await startHarness({ smtp: true });
    url = harness.api.url;
    organizationId = await createOrganization(harness.api.app, { name: 'Team Wallet' });
    otherOrganizationId = await createOrganization(harness.api.app, { name: 'Other Wallet' });
  });

  afterAll(async () => {
    await harness.close();
  });

  afterEach(() => {
    jest.restoreAllMocks();
  });

  describe('forgot password', () => {
    it('answers the same for any email, mails a single-use link valid 1 hour, and ends every session', async () => {
      const { client, email } = await signedInClient(harness.api, organizationId, 'developer');
      const anonymous = new DashboardClient(url);
      await anonymous.get('/partner/forgot-password');

      const known = await anonymous.post('/partner/forgot-password', { email });
      const unknown = await anonymous.post('/partner/forgot-password', {
        email: testEmail('nobody'),
      });

      expect([known.status, unknown.status]).toEqual([200, 200]);
      expect(known.text).toContain(RESET_SENT);
      expect(unknown.text).toContain(RESET_SENT);
      const mail = await harness.smtp.waitFor(email, /Reset/);
      const link = mail.links.find((l) => l.includes('/partner/reset-password/'))!;
      const path = new URL(link).pathname;

      const clock = harness.api.app.get(Clock);
      const now = Date.now();
      jest.spyOn(clock, 'now').mockReturnValue(new Date(now + PASSWORD_RESET_TTL_MS + 1000));
      expect((await anonymous.get(path)).status).toBe(404);
      jest.restoreAllMocks();

      expect((await anonymous.get(path)).status).toBe(200);
      const weak = await anonymous.post(path, { password: 'password1234' });
      expect(weak.status).toBe(400);
      expect(weak.text).toContain('too common');
      const password = testPassword();
      const reset = await anonymous.post(path, { password });
      expect(reset.status).toBe(303);
      expect(reset.headers.location).toBe('/partner/login');
      expect((await anonymous.post(path, { password: testPassword() })).status).toBe(404);
      expect((await client.get('/partner')).status).toBe(303);
      const again = new DashboardClient(url);
      await again.signIn(email, password);
      expect((await again.get('/partner')).status).toBe(200);
    });
  });

  describe('team', () => {
    it('is for owners only', async () => {
      for (const role of ['developer', 'viewer'] as const) {
        const { client } = await signedInClient(harness.api, organizationId, role);
        expect((await client.get('/partner/team')).status).toBe(403);
        const invite = await client.post('/partner/team/invitations', {
          email: testEmail(),
          role: 'owner',
        });
        expect(invite.status).toBe(403);
      }
    });

    it("answers an address with an account elsewhere as a new one, and never names another organization's users", async () => {
      const owner = await signedInClient(harness.api, organizationId, 'owner');
      const elsewhere = await createDashboardUser(harness.api, otherOrganizationId, 'viewer');
      const stranger = testEmail('nobody');
      const flashAfterInviting = async (email: string): Promise<string | null> => {
        await owner.client.post('/partner/team/invitations', {
          email,
          role: 'viewer',
          confirmPassword: owner.password,
        });
        return flashOf((await owner.client.get('/partner/team')).text);
      };

      const forNew = await flashAfterInviting(stranger);
      const forTaken = await flashAfterInviting(elsewhere.email);
      expect(forTaken).toBe(forNew?.replace(stranger, elsewhere.email));
      // The new address gets an invitation; the taken one a notice with no link to follow.
      await harness.smtp.waitFor(stranger, /invited/);
      const notice = await harness.smtp.waitFor(elsewhere.email, /tried to invite/);
      expect(notice.links).toEqual([]);
      const users = await harness.api.app
        .get(DashboardAccountsService)
        .listUsers(otherOrganizationId);
      expect(users.find((u) => u.email === elsewhere.email)?.organizationId).toBe(
        otherOrganizationId,
      );
      // A member of the owner's own team is named as such: the owner sees the team anyway.
      expect(await flashAfterInviting(owner.email)).toBe('This person is in your team already.');
    });

    it('invites by mail after a password confirmation, changes roles, and never loses the last owner', async () => {
      const owner = await signedInClient(harness.api, organizationId, 'owner');
      const page = await owner.client.get('/partner/team');
      expect(page.status).toBe(200);
      expect(page.text).toContain('Your password');
      const email = testEmail('teammate');

      const unconfirmed = await owner.client.post('/partner/team/invitations', {
        email,
        role: 'viewer',
      });
      expect(unconfirmed.status).toBe(303);
      expect(flashOf((await owner.client.get('/partner/team')).text)).toBe(
        'Confirm with your password to change the team.',
      );
      const wrong = await owner.client.post('/partner/team/invitations', {
        email,
        role: 'viewer',
        confirmPassword: 'not-my-password-at-all',
      });
      expect(wrong.status).toBe(303);
      expect(harness.smtp.mails.some((m) => m.to.includes(email))).toBe(false);

      await owner.client.post('/partner/team/invitations', {
        email,
        role: 'viewer',
        confirmPassword: owner.password,
      });
      const mail = await harness.smtp.waitFor(email, /invited/);
      const invitationPath = new URL(mail.links[0]).pathname;
      const invitee = new DashboardClient(url);
      await invitee.get(invitationPath);
      expect((await invitee.post(invitationPath, { password: testPassword() })).status).toBe(303);
      // Within 5 minutes of the confirmation the form asks no password.
      const team = await owner.client.get('/partner/team');
      expect(team.text).not.toContain('Your password');
      expect(team.text).toContain(email);
      const inviteeId = /action="\/partner\/team\/([0-9a-f-]{36})\/role"/g;
      const ids = [...team.text.matchAll(inviteeId)].map((m) => m[1]);
      const users = await harness.api.app.get(DashboardAccountsService).listUsers(organizationId);
      const invited = users.find((u) => u.email === email)!;
      expect(ids).toContain(invited.id);

      const promoted = await owner.client.post(`/partner/team/${invited.id}/role`, {
        role: 'developer',
      });
      expect(promoted.status).toBe(303);
      expect(flashOf((await owner.client.get('/partner/team')).text)).toBe(
        `${email} is now developer.`,
      );
      // The member's sessions ended with the role change.
      expect((await invitee.get('/partner')).status).toBe(303);

      // Every other owner is demoted; then the last one cannot be demoted or removed.
      for (const user of users.filter((u) => u.role === 'owner' && u.id !== owner.user.id)) {
        await owner.client.post(`/partner/team/${user.id}/role`, { role: 'viewer' });
      }
      await owner.client.post(`/partner/team/${owner.user.id}/role`, { role: 'viewer' });
      expect(flashOf((await owner.client.get('/partner/team')).text)).toBe(
        'An organization keeps at least one owner.',
      );
      await owner.client.post(`/partner/team/${owner.user.id}/remove`, {});
      expect(flashOf((await owner.client.get('/partner/team')).text)).toBe(
        'An organization keeps at least one owner.',
      );

      await owner.client.post(`/partner/team/${invited.id}/remove`, {});
      expect(flashOf((await owner.client.get('/partner/team')).text)).toBe('Member removed.');
    });

    it("never reaches another organization's members", async () => {
      const owner = await signedInClient(harness.api, organizationId, 'owner');
      const stranger = await createDashboardUser(harness.api, otherOrganizationId, 'owner');
      await owner.client.post(`/partner/team/${stranger.user.id}/role`, {
        role: 'viewer',
        confirmPassword: owner.password,
      });
      expect(flashOf((await owner.client.get('/partner/team')).text)).toBe('User not found.');
      await owner.client.post(`/partner/team/${stranger.user.id}/remove`, {});
      expect(flashOf((await owner.client.get('/partner/team')).text)).toBe('User not found.');
      const strangerClient = new DashboardClient(url);
      await strangerClient.signIn(stranger.email, stranger.password);
      expect((await strangerClient.get('/partner')).text).toContain('Other Wallet');
      const page = await owner.client.get('/partner/team');
      expect(page.text).not.toContain(stranger.email);
    });
  });

  describe('security page', () => {
    it('lists the sessions, ends one, and changes the password under a new session id', async () => {
      const { client, email, password } = await signedInClient(
        harness.api,
        organizationId,
        'viewer',
      );
      const other = new DashboardClient(url);
      await other.signIn(email, password);
      const page = await client.get('/partner/security');
      expect(page.status).toBe(200);
      const ends = [
        ...page.text.matchAll(/action="(\/partner\/security\/sessions\/[0-9a-f-]+\/end)"/g),
      ];
      expect(ends).toHaveLength(2);
      expect(page.text).toContain('(this session)');

      const foreign = await signedInClient(harness.api, otherOrganizationId, 'owner');
      const foreignEnd = await foreign.client.post(ends[0][1], {});
      expect(foreignEnd.status).toBe(303);
      expect((await client.get('/partner')).status).toBe(200);
      expect((await other.get('/partner')).status).toBe(200);

      const before = client.sessionId();
      const wrong = await client.post('/partner/security/password', {
        confirmPassword: 'not-the-password',
        newPassword: testPassword(),
      });
      expect(wrong.status).toBe(303);
      expect(flashOf((await client.get('/partner/security')).text)).toBe(
        'That password is not right.',
      );
      const next = testPassword();
      await client.post('/partner/security/password', {
        confirmPassword: password,
        newPassword: next,
      });
      expect(client.sessionId()).not.toBe(before);
      expect((await client.get('/partner/security')).status).toBe(200);
      expect((await other.get('/partner')).status).toBe(303);
      expect(
        (await request(url).get('/partner').set('Cookie', `partner_session=${before}`)).status,
      ).toBe(303);

      const third = new DashboardClient(url);
      await third.signIn(email, next);
      const list = await client.get('/partner/security');
      const mine = [
        ...list.text.matchAll(/action="(\/partner\/security\/sessions\/[0-9a-f-]+\/end)"/g),
      ];
      expect(mine).toHaveLength(2);
      for (const [, action] of mine) {
        await client.post(action, {});
      }
      expect((await third.get('/partner')).status).toBe(303);
      expect((await client.get('/partner')).status).toBe(303);
    });
  });

  describe('audit log', () => {
    it("shows the organization's own entries only, newest first, paged by keyset", async () => {
      const owner = await signedInClient(harness.api, organizationId, 'owner');
      const foreign = await signedInClient(harness.api, otherOrganizationId, 'owner');
      for (let i = 0; i < 55; i += 1) {
        await owner.client.post('/partner/mode', { mode: i % 2 ? 'live' : 'test' });
        await new DashboardClient(url).signIn(owner.email, owner.password);
      }

      const first = await owner.client.get('/partner/audit-log');
      expect(first.status).toBe(200);
      expect(first.text).toContain('user.signed_in');
      expect(first.text).not.toContain(foreign.email);
      const older = /href="(\/partner\/audit-log\?before=\d+)"/.exec(first.text)?.[1];
      expect(older).toBeDefined();
      const second = await owner.client.get(older!);
      expect(second.status).toBe(200);
      expect(second.text).toContain('Newest entries');
      const firstIds = [...first.text.matchAll(/<td>(\d{4}-\d\d-\d\d [\d:]+ UTC)<\/td>/g)].length;
      expect(firstIds).toBe(50);
      for (const hostile of ['abc', '-1', '99999999999999999999999', "1'; DROP TABLE x;--"]) {
        expect(
          (await owner.client.get(`/partner/audit-log?before=${encodeURIComponent(hostile)}`))
            .status,
        ).toBe(200);
      }
    }, 60_000);
  });

  describe('applying', () => {
    /** Applies from a fresh client; the answer as a person (and an enumerator) sees it. */
    async function apply(email: string, organizationName: string) {
      const client = new DashboardClient(url);
      await client.get('/partner/signup');
      const res = await client.post('/partner/signup', {
        organizationName,
        email,
        password: testPassword(),
        feePercent: '1',
      });
      const page = await client.get(String(res.headers.location));
      return { client, status: res.status, location: res.headers.location, page: page.text };
    }

    it('answers the same whether the email has an account, and mails the address', async () => {
      const { email: taken } = await createDashboardUser(harness.api, organizationId, 'viewer');
      const fresh = testEmail('applicant');

      const known = await apply(taken, 'Second Try Ltd');
      const unknown = await apply(fresh, 'New Wallet Ltd');

      for (const answer of [known, unknown]) {
        expect(answer.status).toBe(303);
        expect(answer.location).toBe('/partner/signup/sent');
        expect(answer.client.sessionId()).toBeUndefined();
        expect(answer.page).toContain(APPLICATION_SENT);
      }
      expect(known.page.replace(/name="_csrf" value="[^"]+"/g, '')).toBe(
        unknown.page.replace(/name="_csrf" value="[^"]+"/g, ''),
      );
      const notice = await harness.smtp.waitFor(taken, /account already/);
      expect(notice.text).toContain('/partner/forgot-password');
      expect(notice.links.some((l) => l.includes('/partner/signup/confirm/'))).toBe(false);
      const confirm = await harness.smtp.waitFor(fresh, /Confirm your/);
      expect(confirm.links.some((l) => l.includes('/partner/signup/confirm/'))).toBe(true);
    });

    it('creates the organization and signs its owner in only from the mailed link, once', async () => {
      const email = testEmail('founder');
      const { client } = await apply(email, 'Linked Wallet Ltd');
      const mail = await harness.smtp.waitFor(email, /Confirm your/);
      const link = new URL(mail.links.find((l) => l.includes('/partner/signup/confirm/'))!);

      const page = await client.get(link.pathname);
      expect(page.status).toBe(200);
      expect(page.text).toContain('Linked Wallet Ltd');
      const confirmed = await client.post(link.pathname, {});
      expect(confirmed.status).toBe(303);
      expect(confirmed.headers.location).toBe('/partner');
      const overview = await client.get('/partner');
      expect(overview.status).toBe(200);
      expect(overview.text).toContain('Pending review');

      const again = await new DashboardClient(url).get(link.pathname);
      expect(again.status).toBe(404);
      const replay = await client.post(link.pathname, {});
      expect(replay.status).toBe(404);
    });

    it('refuses a second link of an address that has an account by now', async () => {
      const email = testEmail('twice');
      await apply(email, 'First Ltd');
      await apply(email, 'Second Ltd');
      await waitUntil(
        'both confirmation mails',
        () =>
          Promise.resolve(
            harness.smtp.mails.filter((m) => m.to.includes(email) && /Confirm/.test(m.subject))
              .length === 2,
          ),
        10_000,
        100,
      );
      const [first, second] = harness.smtp.mails
        .filter((m) => m.to.includes(email) && /Confirm/.test(m.subject))
        .map((m) => new URL(m.links.find((l) => l.includes('/partner/signup/confirm/'))!));
      const client = new DashboardClient(url);
      await client.get(first.pathname);
      expect((await client.post(first.pathname, {})).status).toBe(303);
      const other = new DashboardClient(url);
      await other.get(second.pathname);
      const refused = await other.post(second.pathname, {});
      expect(refused.status).toBe(409);
      expect(refused.text).toContain('An account with this email exists already');
      expect(other.sessionId()).toBeUndefined();
    });

    it('lets a link expire after 24 hours', async () => {
      const email = testEmail('late');
      await apply(email, 'Late Ltd');
      const mail = await harness.smtp.waitFor(email, /Confirm your/);
      const link = new URL(mail.links.find((l) => l.includes('/partner/signup/confirm/'))!);
      const client = new DashboardClient(url);
      expect((await client.get(link.pathname)).status).toBe(200);
      jest
        .spyOn(harness.api.app.get(Clock), 'now')
        .mockReturnValue(new Date(Date.now() + APPLICATION_TTL_MS + 1000));
      expect((await client.get(link.pathname)).status).toBe(404);
      expect((await client.post(link.pathname, {})).status).toBe(404);
      expect(client.sessionId()).toBeUndefined();
    });
  });
});
