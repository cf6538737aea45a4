import request from 'supertest';
import type { Browser } from 'playwright-core';
import { TEST_ADMIN_TOKEN } from '../support/api.js';
import {
  applyInBrowser,
  launchChromium,
  screenshot,
  seriousAxeFindings,
  signedInContext,
  watchConsole,
} from '../support/browser.js';
import { createDashboardUser, testEmail, testPassword } from '../support/dashboard.js';
import { type Harness, startHarness } from '../support/harness.js';
import { createOrganization } from '../factories/partners.js';

describe('Dashboard in a browser', () => {
  let harness: Harness;
  let browser: Browser;

  beforeAll(async () => {
    harness = await startHarness({ smtp: true });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser.close();
    await harness.close();
  });

  it('applies, is approved by an operator, signs in, sees the Overview and signs out', async () => {
    const url = harness.api.url;
    const email = testEmail('founder');
    const password = testPassword();
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems = watchConsole(page);

    await page.goto(`${url}/partner/signup`);
    expect(await seriousAxeFindings(page)).toEqual([]);
    await applyInBrowser(page, url, harness.smtp, {
      organizationName: 'Browser Wallet Ltd',
      email,
      password,
      feePercent: '1.5',
    });
    await expect(page.getByRole('heading', { name: 'Overview' }).isVisible()).resolves.toBe(true);
    expect(await page.getByText('Pending review').isVisible()).toBe(true);
    expect(await page.locator('main').innerText()).toMatch(/Use test mode meanwhile/i);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${url}/partner/login`);

    const organizations = await request(url)
      .get('/admin/organizations')
      .set('Authorization', `Bearer ${TEST_ADMIN_TOKEN}`)
      .expect(200);
    const applied = (
      organizations.body as { organizations: { id: string; name: string; status: string }[] }
    ).organizations.find((org) => org.name === 'Browser Wallet Ltd');
    expect(applied?.status).toBe('pending_review');
    await request(url)
      .patch(`/admin/organizations/${applied!.id}`)
      .set('Authorization', `Bearer ${TEST_ADMIN_TOKEN}`)
      .send({ status: 'active', providerActivated: true })
      .expect(200);

    expect(await seriousAxeFindings(page)).toEqual([]);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await Promise.all([
      page.waitForURL(`${url}/partner`),
      page.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    expect(await page.getByText('Active', { exact: true }).isVisible()).toBe(true);
    const nav = page.getByRole('navigation', { name: 'Dashboard' });
    for (const name of [
      'Overview',
      'API keys',
      'Swaps',
      'Earnings',
      'Webhooks',
      'Events',
      'Widget',
      'Team',
      'Audit log',
      'Security',
    ]) {
      expect(await nav.getByRole('link', { name, exact: true }).count()).toBe(1);
    }
    expect(await seriousAxeFindings(page)).toEqual([]);

    await page.getByRole('switch', { name: 'Test mode' }).click();
    await page.waitForURL(`${url}/partner`);
    expect(await page.getByRole('switch', { name: 'Test mode' }).getAttribute('aria-checked')).toBe(
      'true',
    );
    expect(await page.getByText('Test mode: you are looking at test').isVisible()).toBe(true);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${url}/partner/login`);
    expect(await page.getByText('You are signed out.').isVisible()).toBe(true);
    await page.goto(`${url}/partner`);
    expect(new URL(page.url()).pathname).toBe('/partner/login');
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  it('an owner invites a teammate who joins from the mail; Team, Security and Audit log pass axe', async () => {
    const url = harness.api.url;
    const organizationId = await createOrganization(harness.api.app, { name: 'Team Browser Co' });
    const owner = await createDashboardUser(harness.api, organizationId, 'owner');
    const { context, page } = await signedInContext(browser, url, owner.email, owner.password);
    const problems = watchConsole(page);

    await page
      .getByRole('navigation', { name: 'Dashboard' })
      .getByRole('link', { name: 'Team' })
      .click();
    await page.waitForURL(`${url}/partner/team`);
    expect(await seriousAxeFindings(page)).toEqual([]);
    const teammate = testEmail('teammate');
    const invite = page.getByRole('form', { name: 'Invite' });
    await invite.getByLabel('Email').fill(teammate);
    await invite.getByLabel('Role').selectOption('developer');
    await invite.getByLabel('Your password').fill(owner.password);
    await invite.getByRole('button', { name: 'Invite' }).click();
    await page.waitForURL(`${url}/partner/team`);
    expect(await page.getByText(`Invitation sent to ${teammate}.`).isVisible()).toBe(true);
    await screenshot(page, 'team');

    const mail = await harness.smtp.waitFor(teammate, /invited/);
    const joining = await browser.newContext();
    const joiner = await joining.newPage();
    const joinerProblems = watchConsole(joiner);
    await joiner.goto(mail.links[0]);
    expect(await seriousAxeFindings(joiner)).toEqual([]);
    await joiner.getByLabel('New password').fill(testPassword());
    await Promise.all([
      joiner.waitForURL(`${url}/partner`),
      joiner.getByRole('button', { name: 'Set password and join' }).click(),
    ]);
    expect(await joiner.getByText('Team Browser Co').first().isVisible()).toBe(true);
    expect(await joiner.getByText(`${teammate} (developer)`).isVisible()).toBe(true);
    expect(joinerProblems).toEqual([]);
    await joining.close();

    await page.goto(`${url}/partner/security`);
    expect(await page.getByRole('button', { name: 'End session' }).count()).toBe(1);
    expect(await seriousAxeFindings(page)).toEqual([]);
    await page.goto(`${url}/partner/audit-log`);
    expect(await page.getByRole('cell', { name: 'team.invited' }).count()).toBe(1);
    expect(await seriousAxeFindings(page)).toEqual([]);
    await page.goto(`${url}/partner/forgot-password`);
    expect(new URL(page.url()).pathname).toBe('/partner/forgot-password');
    expect(await seriousAxeFindings(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);
});
