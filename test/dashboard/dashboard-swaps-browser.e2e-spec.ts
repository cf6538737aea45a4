import { jest } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { generateAddress } from '#app/chains';
import { feeInUsd } from '#app/domain';
import { EventRecorder } from '#app/events';
import { EarningsRepository } from '#app/earnings';
import { SWAP_CSV_FIELDS, SwapQueryService } from '#app/swaps';
import { insertSwaps } from '../factories/swaps.js';
import {
  launchChromium,
  screenshot,
  seriousAxeFindings,
  signedInContext,
  watchConsole,
} from '../support/browser.js';
import { parseCsv } from '../support/csv.js';
import { createDashboardUser } from '../support/dashboard.js';
import { type Harness, startHarness } from '../support/harness.js';
import { createOrganization } from '../factories/partners.js';

const random = (n: number): Uint8Array => randomBytes(n);

describe('Dashboard in a browser: overview, swaps, a swap, earnings', () => {
  // Chromium, a seeded organization and argon2id sign-ins: seconds on a quiet machine, many times
  // that on a busy one; a slow machine is not what these tests check.
  jest.setTimeout(120_000);

  let harness: Harness;
  let db: DataSource;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let organizationId: string;
  let password: string;
  let swapIds: string[];

  beforeAll(async () => {
    harness = await startHarness({ smtp: true });
    db = harness.db;
    organizationId = await createOrganization(harness.api.app, { name: 'Gamma Exchange' });
    const made = await createDashboardUser(harness.api, organizationId, 'owner');
    password = made.password;
    const statuses = [
      'finished',
      'waiting',
      'finished',
      'exchanging',
      'failed',
      'finished',
    ] as const;
    swapIds = await insertSwaps(
      db,
      Array.from({ length: 36 }, (_, i) => ({
        organizationId,
        createdAt: new Date(Date.now() - i * 19 * 3_600_000).toISOString(),
        status: statuses[i % statuses.length],
        from: i % 3 === 0 ? 'ltc' : 'btc',
        to: 'eth',
        amountActualFrom: statuses[i % statuses.length] === 'finished' ? '0.25' : null,
        payoutAddress: generateAddress('ethereum', random),
        partnerReferenceId: `order-${1000 + i}`,
      })),
    );
    // Finished live swaps earn: their fee is booked at a USD price (as the poller books it).
    const earnings = harness.api.app.get(EarningsRepository);
    const ledgerDb = harness.api.app.get(DataSource);
    for (const [i, id] of swapIds.entries()) {
      if (statuses[i % statuses.length] !== 'finished') {
        continue;
      }
      const usdPrice = i % 3 === 0 ? '84.12' : '64250.5';
      await ledgerDb.transaction((manager) =>
        earnings.bookWithin(manager, {
          organizationId,
          swapId: id,
          feePercent: '1',
          amountActualFrom: '0.25',
          from: i % 3 === 0 ? 'ltc' : 'btc',
          usdPrice,
          amountUsd: feeInUsd('0.25', usdPrice, '1'),
        }),
      );
    }
    // An endpoint subscribed to swap events gets a delivery of each.
    await db.query(
      `INSERT INTO webhook_endpoints (id, organization_id, livemode, url, events, secret_ciphertext)
       VALUES ('we_0000000000000000000000b1', $1, true, 'https://hooks.gamma.example/swaps',
               '{swap.created,swap.status_changed}', 'x')`,
      [organizationId],
    );
    // The newest swap has a history: created, then confirming.
    const swap = await harness.api.app
      .get(SwapQueryService)
      .get(swapIds[0], { organizationId, livemode: true });
    const recorder = harness.api.app.get(EventRecorder);
    const appDb = harness.api.app.get(DataSource);
    await appDb.transaction((m) =>
      recorder.swapCreated(m, organizationId, { ...swap, status: 'waiting' }),
    );
    await appDb.transaction((m) =>
      recorder.swapStatusChanged(m, organizationId, { ...swap, status: 'confirming' }, 'waiting'),
    );
    browser = await launchChromium();
    const signedIn = await signedInContext(browser, harness.api.url, made.email, password);
    page = signedIn.page;
    problems = watchConsole(page);
  });

  afterAll(async () => {
    await browser?.close();
    await harness.close();
  });

  afterEach(() => {
    expect(problems).toEqual([]);
  });

  it('shows the overview with its 30-day charts', async () => {
    await page.goto(`${harness.api.url}/partner`);
    await expect(
      page.getByRole('img', { name: /Swaps per day over the last 30 days/ }).count(),
    ).resolves.toBe(1);
    await expect(page.getByRole('heading', { name: 'Last 30 days' }).isVisible()).resolves.toBe(
      true,
    );
    expect(await seriousAxeFindings(page)).toEqual([]);
    await screenshot(page, 'overview');
  });

  it('filters the swaps and exports what the filter selects as CSV', async () => {
    await page.getByRole('link', { name: 'Swaps', exact: true }).click();
    await page.waitForURL(/\/partner\/swaps$/);
    expect(await seriousAxeFindings(page)).toEqual([]);
    await page.getByLabel('Status').selectOption('finished');
    await Promise.all([
      page.waitForURL(/status=finished/),
      page.getByRole('button', { name: 'Apply filters' }).click(),
    ]);
    const rows = page.locator('table tbody tr');
    await expect(rows.count()).resolves.toBe(18);
    await screenshot(page, 'swaps');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^swaps-live-\d{4}-\d{2}-\d{2}\.csv$/);
    const path = await download.path();
    const [header, ...records] = parseCsv(await readFile(path, 'utf8'));
    expect(header).toEqual(SWAP_CSV_FIELDS);
    expect(records).toHaveLength(18);
    expect(new Set(records.map((r) => r[header.indexOf('status')]))).toEqual(new Set(['finished']));
  });

  it('opens a swap with its fields, event history and deliveries', async () => {
    await page.goto(`${harness.api.url}/partner/swaps`);
    await Promise.all([
      page.waitForURL(new RegExp(`/partner/swaps/${swapIds[0]}$`)),
      page.getByRole('link', { name: swapIds[0] }).click(),
    ]);
    await expect(page.getByRole('heading', { name: 'Event history' }).isVisible()).resolves.toBe(
      true,
    );
    await expect(
      page.getByRole('cell', { name: 'swap.status_changed', exact: true }).count(),
    ).resolves.toBe(1);
    await expect(
      page.getByRole('cell', { name: 'https://hooks.gamma.example/swaps' }).count(),
    ).resolves.toBe(2);
    expect(await seriousAxeFindings(page)).toEqual([]);
    await screenshot(page, 'swap');
  });

  it('changes the payout address after confirming the password', async () => {
    const address = generateAddress('tron', random);
    await page.getByRole('link', { name: 'Earnings', exact: true }).click();
    await page.waitForURL(/\/partner\/earnings$/);
    expect(await seriousAxeFindings(page)).toEqual([]);
    await page.getByLabel('Network').selectOption('trc20');
    await page.getByLabel('Payout address').fill(address);
    await page.getByLabel('Password').fill(password);
    await Promise.all([
      page.waitForURL(/\/partner\/earnings$/),
      page.getByRole('button', { name: 'Save payout address' }).click(),
    ]);
    await expect(page.getByRole('status').first().textContent()).resolves.toMatch(
      /payout address/i,
    );
    await expect(page.getByText(address).count()).resolves.toBeGreaterThan(0);
    const [org] = await db.query<{ payout_address: string }[]>(
      'SELECT payout_address FROM organizations WHERE id = $1',
      [organizationId],
    );
    expect(org.payout_address).toBe(address);
  });
});
