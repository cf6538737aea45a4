import { jest } from '@jest/globals';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { feeInUsd } from '#app/domain';
import { EarningsRepository } from '#app/earnings';
import { insertSwaps } from '../factories/swaps.js';
import { TEST_ADMIN_TOKEN } from '../support/api.js';
import {
  applyInBrowser,
  launchChromium,
  screenshot,
  seriousAxeFindings,
  watchConsole,
} from '../support/browser.js';
import { testEmail, testPassword } from '../support/dashboard.js';
import { waitUntil } from '../support/wait.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { type Harness, startHarness } from '../support/harness.js';

const run = promisify(execFile);

const ORGANIZATION = 'First Steps Exchange';

/**
 * The way in, as a new partner takes it (docs/decisions.md, "Dashboard: Get started"): the
 * landing page, sign-up, "Get started" with a test key made there, its walkthrough run as
 * printed, the checklist ticking from what really happened, and the swap's page driving the
 * test swap to `finished` with its buttons; then the copy fixes read again on their pages.
 */
describe('Get started in a browser: from sign-up to a finished test swap', () => {
  // Chromium, argon2id sign-ups and a sandbox lifecycle: seconds on a quiet machine, many times
  // that on a busy one; a slow machine is not what these tests check.
  jest.setTimeout(180_000);

  let harness: Harness;
  let receiver: WebhookReceiver;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  let url: string;
  const key = { publicKey: '', secret: '' };
  let swapUrl = '';
  let endpointId = '';

  beforeAll(async () => {
    receiver = new WebhookReceiver();
    await receiver.start();
    harness = await startHarness({
      smtp: true,
      // A test swap moves only when a helper moves it: the sandbox takes no step of its own.
      sandbox: { stepMs: 3_600_000 },
      localPoller: {
        POLL_INTERVAL_MS: '60000',
        TEST_POLL_INTERVAL_MS: '500',
        WEBHOOK_RETRY_BASE_MS: '200',
      },
    });
    url = harness.api.url;
    browser = await launchChromium();
    context = await browser.newContext();
    page = await context.newPage();
    problems = watchConsole(page);
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await harness?.close();
    await receiver?.close();
  });

  afterEach(() => {
    expect(problems).toEqual([]);
  });

  /** Runs lines printed on the page in bash, with the key's secret in `SECRET`, as a person would. */
  async function runPrinted(lines: string): Promise<string> {
    const { stdout, stderr } = await run('bash', ['--norc', '-c', lines], {
      timeout: 90_000,
      env: { PATH: process.env.PATH, SECRET: key.secret },
    });
    process.stdout.write(`walkthrough transcript:\n${stdout}${stderr}\n`);
    return stdout;
  }

  async function printed(name: 'create' | 'finish'): Promise<string> {
    return (await page.locator(`pre[data-walkthrough="${name}"]`).innerText()).trim();
  }

  /** Each step of the checklist, with what it says ("Done" or "Not yet"). */
  async function checklist(): Promise<Record<string, string>> {
    const items = page.locator('ul.checklist li');
    const states: Record<string, string> = {};
    for (let i = 0; i < (await items.count()); i += 1) {
      const item = items.nth(i);
      states[(await item.locator('.step').innerText()).trim()] = (
        await item.locator('.state').innerText()
      ).trim();
    }
    return states;
  }

  async function swapStatus(): Promise<string> {
    return (await page.locator('dt:text-is("status") + dd').innerText()).trim();
  }

  const db = (): DataSource => harness.api.app.get(DataSource);

  async function organizationId(): Promise<string> {
    const rows: { id: string }[] = await db().query(
      `SELECT id FROM organizations WHERE name = $1`,
      [ORGANIZATION],
    );
    return rows[0].id;
  }

  it('answers / with a small page linking the sign-in, the sign-up and /docs', async () => {
    const res = await request(url).get('/').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(res.headers['cache-control']).toBe('no-store');

    await page.goto(`${url}/`);
    for (const [name, href] of [
      ['Sign in', '/partner/login'],
      ['Sign up', '/partner/signup'],
      ['API reference', '/docs'],
    ]) {
      expect(await page.getByRole('link', { name, exact: true }).getAttribute('href')).toBe(href);
    }
    expect(await seriousAxeFindings(page)).toEqual([]);
    await Promise.all([
      page.waitForURL(`${url}/partner/signup`),
      page.getByRole('link', { name: 'Sign up', exact: true }).click(),
    ]);
  });

  it('signs up, makes a test key on Get started, runs its walkthrough as printed and ticks the checklist', async () => {
    await applyInBrowser(page, url, harness.smtp, {
      organizationName: ORGANIZATION,
      email: testEmail('first'),
      password: testPassword(),
      feePercent: '1',
    });
    // A new organization starts in test mode: the Overview asks to switch it on only when it is off.
    const overview = async (): Promise<string> => page.locator('main').innerText();
    expect(await overview()).toContain('Use test mode meanwhile: it is on');
    expect(await overview()).not.toContain('switch on "Test mode"');
    const toggle = (): Promise<unknown> =>
      Promise.all([
        page.waitForURL(`${url}/partner`),
        page.getByRole('switch', { name: 'Test mode' }).click(),
      ]);
    await toggle();
    expect(await overview()).toContain('Use test mode meanwhile: switch on "Test mode"');
    await toggle();

    await Promise.all([
      page.waitForURL(`${url}/partner/get-started`),
      page
        .getByRole('navigation', { name: 'Dashboard' })
        .getByRole('link', { name: 'Get started', exact: true })
        .click(),
    ]);
    expect(await checklist()).toEqual({
      'First test quote': 'Not yet',
      'First test swap': 'Not yet',
      'First webhook delivered': 'Not yet',
      'First live key': 'Not yet',
    });
    expect((await page.getByTestId('base-url').innerText()).trim()).toBe(`${url}/v1`);
    for (const [name, href] of [
      ['API reference (/docs)', '/docs'],
      ['The SDK', '#sdk'],
      ['listen', '#listen'],
    ]) {
      expect(await page.getByRole('link', { name, exact: true }).getAttribute('href')).toBe(href);
    }
    expect(await seriousAxeFindings(page)).toEqual([]);

    await page.getByRole('button', { name: 'Create a test key', exact: true }).click();
    await page.getByRole('region', { name: 'Your new test key' }).waitFor();
    key.secret = (await page.getByTestId('secret').innerText()).trim();
    key.publicKey = (await page.getByTestId('test-key').innerText()).trim();
    expect(key.secret).toMatch(/^sk_test_[0-9a-f]{48}$/);
    expect(key.publicKey).toMatch(/^pk_test_[0-9a-f]{32}$/);
    expect(await seriousAxeFindings(page)).toEqual([]);

    // Read again, the page shows the key's public part only, in a walkthrough of its own.
    await page.goto(`${url}/partner/get-started`);
    expect(await page.content()).not.toContain(key.secret);
    const create = await printed('create');
    expect(create).toContain(`API=${url}`);
    expect(create).toContain(key.publicKey);

    // The walkthrough's tabs work without script: curl first, the SDK a click away.
    expect(await page.locator('#panel-curl').isVisible()).toBe(true);
    expect(await page.locator('#panel-sdk').isVisible()).toBe(false);
    await page.locator('label[for="tab-sdk"]').click();
    expect(await page.locator('#panel-sdk').isVisible()).toBe(true);
    expect(await page.locator('#panel-curl').isVisible()).toBe(false);
    expect(await page.locator('pre[data-walkthrough="sdk"]').innerText()).toContain(
      `credential: \`${key.publicKey}:\${process.env.SECRET}\``,
    );
    await page.locator('label[for="tab-curl"]').click();
    expect(await page.locator('#panel-curl').isVisible()).toBe(true);

    // An endpoint to deliver to, made with the new key as the partner's backend would.
    endpointId = (
      await request(url)
        .post('/v1/webhook_endpoints')
        .set('Authorization', `Bearer ${key.publicKey}:${key.secret}`)
        .send({ url: `${receiver.url}/hooks` })
        .expect(201)
    ).body.webhookEndpoint.id as string;

    const stdout = await runPrinted(create);
    expect(stdout).toContain('"quote":{"from":"btc","to":"eth","amountFrom":"0.1"');
    expect(stdout).toContain('"valid":true');
    const last = /^Swap ([0-9a-f]+): (\S+)$/.exec(stdout.trim().split('\n').at(-1) ?? '');
    expect(last).not.toBeNull();
    swapUrl = last![2];
    expect(swapUrl).toBe(`${url}/partner/swaps/${last![1]}`);

    await waitUntil(
      'the checklist to tick the quote, the swap and the delivered webhook',
      async () => {
        await page.reload();
        const states = await checklist();
        return ['First test quote', 'First test swap', 'First webhook delivered'].every(
          (step) => states[step] === 'Done',
        );
      },
      60_000,
      500,
    );
    expect((await checklist())['First live key']).toBe('Not yet');
    expect(receiver.at('/hooks').length).toBeGreaterThan(0);

    // An organization with a delivery from before the step was recorded keeps it: the migration
    // that adds the record reads the deliveries. Undone and redone in one transaction, so the
    // running api and poller never see the column missing.
    const migration = harness.db.migrations.find((m) =>
      m.name?.startsWith('FirstWebhookDelivered'),
    );
    const runner = harness.db.createQueryRunner();
    try {
      await runner.startTransaction();
      await migration!.down(runner);
      await migration!.up(runner);
      await runner.commitTransaction();
    } finally {
      await runner.release();
    }
    await page.reload();
    expect((await checklist())['First webhook delivered']).toBe('Done');
    await screenshot(page, 'get-started');
  });

  it('drives the test swap to finished with the buttons on its page', async () => {
    await page.goto(swapUrl);
    expect(await swapStatus()).toBe('waiting');
    await page.getByRole('heading', { name: 'Test helpers' }).waitFor();
    expect(await seriousAxeFindings(page)).toEqual([]);
    await screenshot(page, 'swap-test-helpers');
    await page.getByRole('button', { name: 'Simulate deposit', exact: true }).click();
    await page.getByText('Deposit simulated: the swap is confirming.').waitFor();
    expect(await swapStatus()).toBe('confirming');
    await page.getByLabel('New status').selectOption('finished');
    await page.getByRole('button', { name: 'Force status', exact: true }).click();
    await page.getByText('The swap is finished now.').waitFor();
    expect(await swapStatus()).toBe('finished');
    expect(await page.getByText('This swap is over').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Simulate deposit', exact: true }).count()).toBe(
      0,
    );
  });

  it('forces a status, simulates short and late deposits, and runs the rest of the walkthrough', async () => {
    await page.goto(`${url}/partner/get-started`);
    const create = await printed('create');
    const finish = await printed('finish');
    const swapOf = (stdout: string): string =>
      /^Swap [0-9a-f]+: (\S+)$/.exec(stdout.trim().split('\n').at(-1) ?? '')![1];

    await page.goto(swapOf(await runPrinted(create)));
    await page.getByLabel('New status').selectOption('failed');
    await page.getByRole('button', { name: 'Force status', exact: true }).click();
    await page.getByText('The swap is failed now.').waitFor();
    expect(await swapStatus()).toBe('failed');
    expect(await seriousAxeFindings(page)).toEqual([]);

    await page.goto(swapOf(await runPrinted(create)));
    await page.getByRole('button', { name: 'Short deposit', exact: true }).click();
    await page.getByText('Deposit simulated: the swap is').waitFor();
    expect(await swapStatus()).not.toBe('waiting');

    await page.goto(swapOf(await runPrinted(create)));
    await page.getByRole('button', { name: 'Late deposit', exact: true }).click();
    await page.getByText('Deposit simulated: the swap is').waitFor();
    expect(await swapStatus()).not.toBe('waiting');

    // Both blocks in one shell, as pasted: it deposits, then polls until the swap's page ends it.
    const testSwaps = async (): Promise<{ id: string; status: string }[]> =>
      db().query(`SELECT id, status FROM swaps WHERE NOT livemode`);
    const known = new Set((await testSwaps()).map((swap) => swap.id));
    const both = runPrinted(`${create}\n${finish}`);
    let id = '';
    await waitUntil(
      'the walkthrough to make its swap and deposit',
      async () => {
        const made = (await testSwaps()).find((swap) => !known.has(swap.id));
        id = made?.status === 'confirming' ? made.id : '';
        return id !== '';
      },
      60_000,
      200,
    );
    await page.goto(`${url}/partner/swaps/${id}`);
    await page.getByLabel('New status').selectOption('finished');
    await page.getByRole('button', { name: 'Force status', exact: true }).click();
    await page.getByText('The swap is finished now.').waitFor();
    expect((await both).trim().split('\n').at(-1)).toBe('finished');
  });

  it('ticks the live key once the organization is approved and a live key is made', async () => {
    await request(url)
      .patch(`/admin/organizations/${await organizationId()}`)
      .set('Authorization', `Bearer ${TEST_ADMIN_TOKEN}`)
      .send({ status: 'active', providerActivated: true })
      .expect(200);
    await page.goto(`${url}/partner/api-keys`);
    await Promise.all([
      page.waitForURL(`${url}/partner/api-keys`),
      page.getByRole('switch', { name: 'Test mode' }).click(),
    ]);
    await page.getByLabel('Name').fill('Live server');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = await page.getByRole('region', { name: 'Your new key' }).innerText();
    // The key page says what really happens to the secret later.
    expect(shown).toContain('this page shows it this once');
    expect(shown).toContain('"Reveal secret" shows it again');
    expect(shown).not.toContain('You can reveal it again later');

    // The endpoint that got the first webhook goes, and its deliveries with it: the step stays.
    await request(url)
      .delete(`/v1/webhook_endpoints/${endpointId}`)
      .set('Authorization', `Bearer ${key.publicKey}:${key.secret}`)
      .expect(204);
    await page.goto(`${url}/partner/get-started`);
    expect(await checklist()).toEqual({
      'First test quote': 'Done',
      'First test swap': 'Done',
      'First webhook delivered': 'Done',
      'First live key': 'Done',
    });
  });

  it('reads the charts again: an empty one names no figure', async () => {
    // Live mode, no live swap yet: the charts name no figure that is not there.
    await page.goto(`${url}/partner`);
    const ticks = await page.locator('figure.chart svg text').allTextContents();
    expect(ticks).not.toContain('1 swap');
    expect(ticks).not.toContain('$1.00');
  });

  it('reads the earnings card again: what is payable, and what counts towards the next payout', async () => {
    const orgId = await organizationId();
    const db = harness.api.app.get(DataSource);
    const [swapId] = await insertSwaps(db, [
      {
        organizationId: orgId,
        createdAt: new Date().toISOString(),
        status: 'finished',
        amountActualFrom: '0.25',
      },
    ]);
    // A fee past the threshold: a payout is made due and nothing is accrued towards the next one.
    await db.transaction((manager) =>
      harness.api.app.get(EarningsRepository).bookWithin(manager, {
        organizationId: orgId,
        swapId,
        feePercent: '1',
        amountActualFrom: '0.25',
        from: 'btc',
        usdPrice: '64000',
        amountUsd: feeInUsd('0.25', '64000', '1'),
      }),
    );
    await page.goto(`${url}/partner`);
    const ticksNow = await page.locator('figure.chart svg text').allTextContents();
    expect(ticksNow).toContain('1 swap');
    const card = await page.getByRole('region', { name: 'Earnings' }).innerText();
    expect(card).not.toContain('$100.00 to go before a payout is due');
    expect(card).toContain('$160.00 is payable');
    expect(card).toContain(
      'Towards the next payout: $0.00 of $100.00, $100.00 to go before it is due.',
    );
  });

  it('reads the Swaps table again: the deposit column says it is the deposit', async () => {
    await page.goto(`${url}/partner/swaps`);
    const headers = await page.locator('table thead th').allInnerTexts();
    expect(headers).toContain('Deposit received');
    expect(headers).not.toContain('Received');
    expect(await seriousAxeFindings(page)).toEqual([]);
  });
});
