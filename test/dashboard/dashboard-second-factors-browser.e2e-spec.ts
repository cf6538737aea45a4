import { jest } from '@jest/globals';
import { generateSync } from 'otplib';
import type { Browser, Page } from 'playwright-core';
import { Clock } from '#app/accounts';
import {
  launchChromium,
  screenshot,
  seriousAxeFindings,
  watchConsole,
} from '../support/browser.js';
import { createDashboardUser } from '../support/dashboard.js';
import { type Harness, startHarness } from '../support/harness.js';
import { createOrganization } from '../factories/partners.js';

const FACTORS = '/partner/security/second-factors';

describe('Dashboard second factors in a browser', () => {
  // Each flow hashes passwords (argon2id) and drives Chromium: seconds on a quiet machine, many
  // times that on a busy one; a slow machine is not what these tests check.
  jest.setTimeout(120_000);

  let harness: Harness;
  let browser: Browser;
  let organizationId: string;
  /** WebAuthn needs a domain name: the same api, reached as localhost. */
  let base: string;
  let now = Date.now();

  beforeAll(async () => {
    harness = await startHarness({ smtp: true });
    browser = await launchChromium();
    base = harness.api.url.replace('127.0.0.1', 'localhost');
    organizationId = await createOrganization(harness.api.app, { name: 'Second Step Ltd' });
    jest.spyOn(harness.api.app.get(Clock), 'now').mockImplementation(() => new Date(now));
  });

  afterAll(async () => {
    jest.restoreAllMocks();
    await browser.close();
    await harness.close();
  });

  async function passwordStep(page: Page, email: string, password: string): Promise<void> {
    await page.goto(`${base}/partner/login`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await Promise.all([
      page.waitForURL((url) => url.pathname !== '/partner/login'),
      page.getByRole('button', { name: 'Sign in', exact: true }).click(),
    ]);
  }

  async function signOut(page: Page): Promise<void> {
    await Promise.all([
      page.waitForURL(`${base}/partner/login`),
      page.getByRole('button', { name: 'Sign out' }).click(),
    ]);
  }

  /** A new context whose page has Chromium's virtual authenticator (CDP `WebAuthn`). */
  async function withAuthenticator(transport: 'internal' | 'usb') {
    const context = await browser.newContext();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport,
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    return { context, page };
  }

  async function addPasskey(page: Page, name: string, password: string): Promise<void> {
    await page.goto(`${base}${FACTORS}`);
    const add = page.getByRole('form', { name: 'Add a passkey' });
    await add.getByLabel('Passkey name').fill(name);
    await add.getByLabel('Password').fill(password);
    await add.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByText(`Passkey “${name}” added.`).waitFor({ timeout: 10_000 });
  }

  it('enrols the authenticator app, then signs in with password and code, and a recovery code once', async () => {
    const { email, password } = await createDashboardUser(harness.api, organizationId, 'viewer');
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems = watchConsole(page);

    await passwordStep(page, email, password);
    expect(new URL(page.url()).pathname).toBe('/partner');
    await page.goto(`${base}${FACTORS}`);
    expect(await seriousAxeFindings(page)).toEqual([]);
    await page
      .getByRole('form', { name: 'Set up the authenticator app' })
      .getByLabel('Password')
      .fill(password);
    await Promise.all([
      page.waitForURL(`${base}${FACTORS}/totp`),
      page.getByRole('button', { name: 'Set up authenticator app' }).click(),
    ]);
    expect(await page.getByRole('img', { name: /QR code/ }).isVisible()).toBe(true);
    expect(await seriousAxeFindings(page)).toEqual([]);
    await screenshot(page, 'security-totp');
    const secret = (await page.locator('figcaption code').innerText()).replace(/ /g, '');
    const code = () => generateSync({ secret, epoch: Math.floor(now / 1000) });
    await page.getByLabel('Authentication code').fill(code());
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByRole('heading', { name: 'Save your recovery codes' }).waitFor();
    const recoveryCodes = await page
      .getByRole('list', { name: 'Recovery codes' })
      .locator('code')
      .allInnerTexts();
    expect(recoveryCodes).toHaveLength(10);
    expect(await seriousAxeFindings(page)).toEqual([]);
    await page.getByRole('link', { name: 'Done' }).click();
    expect(await page.getByText('10 of 10 recovery codes left').isVisible()).toBe(true);
    await signOut(page);

    now += 30_000;
    await passwordStep(page, email, password);
    expect(new URL(page.url()).pathname).toBe('/partner/login/second-factor');
    expect(await seriousAxeFindings(page)).toEqual([]);
    await page.getByLabel('Authentication code').fill(code());
    await Promise.all([
      page.waitForURL(`${base}/partner`),
      page.getByRole('button', { name: 'Verify' }).click(),
    ]);
    await signOut(page);

    await passwordStep(page, email, password);
    await page.getByLabel('Authentication code').fill(recoveryCodes[0]);
    await Promise.all([
      page.waitForURL(`${base}/partner`),
      page.getByRole('button', { name: 'Verify' }).click(),
    ]);
    expect(await page.getByText(/recovery code; 9 left/).isVisible()).toBe(true);
    await signOut(page);

    await passwordStep(page, email, password);
    await page.getByLabel('Authentication code').fill(recoveryCodes[0]);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('That code did not work').waitFor();
    expect(new URL(page.url()).pathname).toBe('/partner/login/second-factor');

    // A refused code is the one 4xx a person may cause; everything else stayed error-free.
    expect(problems.filter((p) => !p.includes('401'))).toEqual([]);
    await context.close();
  });

  it('registers a passkey through the virtual authenticator and signs in with it alone', async () => {
    const { email, password } = await createDashboardUser(harness.api, organizationId, 'owner');
    const { context, page } = await withAuthenticator('internal');
    const problems = watchConsole(page);
    await passwordStep(page, email, password);
    await page.goto(`${base}${FACTORS}`);
    const add = page.getByRole('form', { name: 'Add a passkey' });
    await add.getByLabel('Passkey name').fill('Test laptop');
    await add.getByLabel('Password').fill(password);
    await add.getByRole('button', { name: 'Add a passkey' }).click();
    // The outcome: the flash after the form post, or the script's message if the ceremony failed.
    const outcome = page.locator('.flash, [data-passkey-status]:not(:empty)').first();
    await outcome.waitFor({ timeout: 10_000 });
    expect(await outcome.innerText()).toBe('Passkey “Test laptop” added.');
    expect(await page.getByText('Test laptop', { exact: true }).isVisible()).toBe(true);
    expect(await seriousAxeFindings(page)).toEqual([]);
    await screenshot(page, 'security-second-factors');
    await signOut(page);

    expect(await seriousAxeFindings(page)).toEqual([]);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL(`${base}/partner`, { timeout: 10_000 }).catch(async () => {
      throw new Error(`not signed in: ${await page.locator('main').innerText()}`);
    });
    await page.getByRole('heading', { name: 'Overview' }).waitFor({ timeout: 10_000 });
    expect(problems).toEqual([]);
    await context.close();
  });

  it('asks a user whose second factor is a passkey for it after the password', async () => {
    const { email, password } = await createDashboardUser(harness.api, organizationId, 'developer');
    const { context, page } = await withAuthenticator('usb');
    const problems = watchConsole(page);
    await passwordStep(page, email, password);
    await addPasskey(page, 'Security key', password);
    await signOut(page);

    await passwordStep(page, email, password);
    expect(new URL(page.url()).pathname).toBe('/partner/login/second-factor');
    expect((await context.cookies()).map((cookie) => cookie.name)).not.toContain('partner_session');
    expect(await page.getByLabel('Authentication code').count()).toBe(0);
    expect(await seriousAxeFindings(page)).toEqual([]);
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await page.waitForURL(`${base}/partner`, { timeout: 10_000 }).catch(async () => {
      throw new Error(`not signed in: ${await page.locator('main').innerText()}`);
    });
    expect(problems).toEqual([]);
    await context.close();
  });

  it('confirms "Reveal secret" with a passkey inline, back on the page that then asks nothing', async () => {
    const { email, password } = await createDashboardUser(harness.api, organizationId, 'owner');
    const { context, page } = await withAuthenticator('internal');
    const problems = watchConsole(page);
    await passwordStep(page, email, password);
    await addPasskey(page, 'Laptop', password);
    await page.goto(`${base}/partner/api-keys`);
    await page.getByLabel('Name').fill('Inline');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByText('Your new key').waitFor();
    const publicKey = await page.locator('table code.mono').first().innerText();
    now += 6 * 60_000;

    await page.goto(`${base}/partner/api-keys`);
    const reveal = page.getByRole('form', { name: `Reveal secret of ${publicKey}` });
    expect(await reveal.getByLabel('Password').isVisible()).toBe(true);
    expect(await seriousAxeFindings(page)).toEqual([]);
    await reveal.getByRole('button', { name: 'Confirm with a passkey' }).click();
    await page
      .getByText('Confirmed: for 5 minutes, changes ask nothing more.')
      .waitFor({ timeout: 10_000 })
      .catch(async () => {
        throw new Error(`not confirmed: ${await page.locator('main').innerText()}`);
      });
    expect(new URL(page.url()).pathname).toBe('/partner/api-keys');
    expect(await reveal.getByLabel('Password').count()).toBe(0);
    await reveal.getByRole('button', { name: 'Reveal secret' }).click();
    await page.getByText('The secret you asked for').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows no passkey button on an IP address', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${harness.api.url}/partner/login`);
    await page.waitForLoadState('load');
    expect(await page.getByRole('button', { name: 'Sign in with a passkey' }).count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });
});
