import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import type { PartnerEvent } from '#app/events';
import { CredentialsService } from '#app/partners';
import {
  launchChromium,
  screenshot,
  seriousAxeFindings,
  signedInContext,
  watchConsole,
} from '../support/browser.js';
import { createDashboardUser } from '../support/dashboard.js';
import { waitUntil } from '../support/wait.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { type Harness, startHarness } from '../support/harness.js';
import { createOrganization } from '../factories/partners.js';

/**
 * The API keys, Webhooks and Events pages in Chromium, as a person uses them: a key created,
 * revealed after re-authentication, used on /v1 and revoked; what a viewer sees; an endpoint
 * added, a delivered event resent to a local receiver and checked with its signing secret.
 */
describe('Dashboard keys, webhooks and events in a browser', () => {
  let harness: Harness;
  let receiver: WebhookReceiver;
  let browser: Browser;
  let orgId: string;
  let owner: { email: string; password: string };
  let url: string;

  beforeAll(async () => {
    receiver = new WebhookReceiver();
    await receiver.start();
    harness = await startHarness({
      smtp: true,
      localPoller: {
        POLL_INTERVAL_MS: '60000',
        WEBHOOK_RETRY_BASE_MS: '200',
      },
    });
    url = harness.api.url;
    browser = await launchChromium();
    orgId = await createOrganization(harness.api.app, { name: 'Browser Keys Ltd' });
    owner = await createDashboardUser(harness.api, orgId, 'owner');
  }, 60_000);

  afterAll(async () => {
    await browser.close();
    await harness.close();
    await receiver.close();
  });

  async function v1Status(publicKey: string, secret: string): Promise<number> {
    const res = await request(url)
      .get('/v1/events?limit=1')
      .set('Authorization', `Bearer ${publicKey}:${secret}`);
    return res.status;
  }

  async function expectAccessible(page: Page): Promise<void> {
    expect(await seriousAxeFindings(page)).toEqual([]);
  }

  it('creates a key, reveals it after re-authentication, uses it on /v1 and revokes it', async () => {
    const { context, page } = await signedInContext(browser, url, owner.email, owner.password);
    const problems = watchConsole(page);
    await page.goto(`${url}/partner/api-keys`);
    await expectAccessible(page);

    await page.getByLabel('Name').fill('Checkout server');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('region', { name: 'Your new key' }).waitFor();
    const secret = (await page.getByTestId('secret').innerText()).trim();
    expect(secret).toMatch(/^sk_live_[0-9a-f]{48}$/);
    const publicKey = (
      await page.getByRole('region', { name: 'Your new key' }).locator('code').first().innerText()
    ).trim();
    expect(publicKey).toMatch(/^pk_live_[0-9a-f]{32}$/);
    await expectAccessible(page);

    // The list shows the key without its secret; the screenshot is of that page.
    await page.goto(`${url}/partner/api-keys`);
    expect(await page.content()).not.toContain(secret);
    expect(await page.getByRole('cell', { name: 'Checkout server' }).isVisible()).toBe(true);
    await screenshot(page, 'api-keys');

    const reveal = page.getByRole('form', { name: `Reveal secret of ${publicKey}` });
    await reveal.getByLabel('Password').fill(owner.password);
    await reveal.getByRole('button', { name: 'Reveal secret' }).click();
    await page.getByRole('region', { name: 'The secret you asked for' }).waitFor();
    expect((await page.getByTestId('secret').innerText()).trim()).toBe(secret);
    await expectAccessible(page);
    await harness.smtp.waitFor(owner.email, /was revealed/);

    expect(await v1Status(publicKey, secret)).toBe(200);

    await page
      .getByRole('form', { name: `Revoke ${publicKey}` })
      .getByRole('button', { name: 'Revoke' })
      .click();
    await page.getByText('revoked: it no longer works').waitFor();
    const elapsed = await waitUntil(
      'the revoked key to be refused on /v1',
      async () => (await v1Status(publicKey, secret)) === 401,
      5000,
    );
    expect(elapsed).toBeLessThan(5000);
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  it('shows a viewer the keys but no secret and no "Reveal secret"', async () => {
    const key = await harness.api.app
      .get(CredentialsService)
      .create({ organizationId: orgId, livemode: true }, 'Seen by the viewer', 'test');
    const viewer = await createDashboardUser(harness.api, orgId, 'viewer');
    const { context, page } = await signedInContext(browser, url, viewer.email, viewer.password);
    const problems = watchConsole(page);

    await page.goto(`${url}/partner/api-keys`);

    expect(await page.getByText(key.publicKey, { exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Reveal secret' }).count()).toBe(0);
    for (const name of ['Create key', 'Revoke', 'Roll']) {
      expect(await page.getByRole('button', { name }).count()).toBe(0);
    }
    expect(await page.content()).not.toContain(key.secret);
    await expectAccessible(page);
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  it('adds an endpoint, resends a delivered event to it, and the receiver verifies it', async () => {
    const { context, page } = await signedInContext(browser, url, owner.email, owner.password);
    const problems = watchConsole(page);
    await page.goto(`${url}/partner/webhooks`);
    await page.getByRole('switch', { name: 'Test mode' }).click();
    await page.getByText('Test mode: you are looking at test').waitFor();
    await expectAccessible(page);

    await page.getByLabel('URL').fill(`${receiver.url}/browser`);
    await page.getByLabel('Description').fill('Order updates');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByRole('region', { name: 'Endpoint added' }).waitFor();
    const signingSecret = (await page.getByTestId('secret').innerText()).trim();
    expect(signingSecret).toMatch(/^whsec_/);
    // The answer to the form is the endpoint's page; its address is the list's, so take the id.
    const endpointId = /we_[0-9a-f]{24}/.exec(await page.content())?.[0];
    const endpointUrl = `${url}/partner/webhooks/${endpointId}`;
    await expectAccessible(page);

    const key = await harness.api.app
      .get(CredentialsService)
      .create({ organizationId: orgId, livemode: false }, 'Swaps', 'test');
    const bearer = `Bearer ${key.publicKey}:${key.secret}`;
    const addresses = await request(url)
      .get('/v1/test_helpers/addresses?currency=eth')
      .set('Authorization', bearer)
      .expect(200);
    await request(url)
      .post('/v1/swaps')
      .set('Authorization', bearer)
      .set('Idempotency-Key', randomUUID())
      .send({ from: 'btc', to: 'eth', amountFrom: '0.1', address: addresses.body.addresses[0] })
      .expect(201);
    await waitUntil('the first delivery', () =>
      Promise.resolve(receiver.at('/browser').length >= 1),
    );
    const first = receiver.at('/browser')[0];
    const event = JSON.parse(first.body) as PartnerEvent;

    // The attempt is written just after the answer: reload until the page lists it.
    await waitUntil('the attempt on the endpoint page', async () => {
      await page.goto(endpointUrl);
      return (await page.getByRole('button', { name: 'Resend' }).count()) > 0;
    });
    await expectAccessible(page);
    await page
      .getByRole('form', { name: `Resend ${event.id}` })
      .getByRole('button', { name: 'Resend' })
      .click();
    await page.getByText('queued for sending again').waitFor();
    await waitUntil('the resent delivery', () =>
      Promise.resolve(receiver.at('/browser').filter((r) => r.body.includes(event.id)).length >= 2),
    );
    const resent = receiver.at('/browser').filter((r) => r.body.includes(event.id))[1];
    const verified = new Webhook(signingSecret).verify(resent.body, {
      'webhook-id': String(resent.headers['webhook-id']),
      'webhook-timestamp': String(resent.headers['webhook-timestamp']),
      'webhook-signature': String(resent.headers['webhook-signature']),
    }) as PartnerEvent;
    expect(verified).toEqual(event);

    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByText('the endpoint answered HTTP 200').waitFor();

    await page.getByRole('link', { name: 'Events', exact: true }).click();
    await page.getByRole('heading', { name: 'Events' }).waitFor();
    await expectAccessible(page);
    await page.getByRole('link', { name: event.id }).click();
    await page.getByRole('heading', { name: `Event ${event.id}` }).waitFor();
    expect(await page.getByRole('cell', { name: `${receiver.url}/browser` }).count()).toBe(2);
    await expectAccessible(page);
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);
});
