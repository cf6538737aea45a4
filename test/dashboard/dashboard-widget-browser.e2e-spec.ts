import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { asset } from '../../apps/api/platform/assets/asset.registry.js';
import { TEST_ADMIN_TOKEN } from '../support/api.js';
import {
  launchChromium,
  screenshot,
  seriousAxeFindings,
  signedInContext,
  watchConsole,
} from '../support/browser.js';
import { createDashboardUser } from '../support/dashboard.js';
import { waitUntil } from '../support/wait.js';
import { type Harness, startHarness } from '../support/harness.js';
import { createOrganization } from '../factories/partners.js';

/**
 * The Widget page in Chromium, as a partner uses it: a test key created for a shop's origin,
 * the hosted widget previewed live in the page (quoting through the sandbox) in the theme and
 * accent picked, the snippet copied and pasted into the shop's page on a second local origin,
 * where it shows the widget; the key revoked; what a viewer sees. axe finds nothing serious.
 */
describe('Dashboard Widget page in a browser', () => {
  let harness: Harness;
  let browser: Browser;
  let shop: Server;
  let shopOrigin: string;
  let shopHtml = '';
  let orgId: string;
  let owner: { email: string; password: string };
  let url: string;

  beforeAll(async () => {
    harness = await startHarness({ smtp: true });
    url = harness.api.url;
    shop = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(shopHtml);
    });
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
    shopOrigin = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
    browser = await launchChromium();
    orgId = await createOrganization(harness.api.app, { name: 'Browser Widget Shop' });
    owner = await createDashboardUser(harness.api, orgId, 'owner');
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => shop.close(() => resolve()));
    await harness.close();
  });

  async function expectAccessible(page: Page): Promise<void> {
    expect(await seriousAxeFindings(page)).toEqual([]);
  }

  it('creates a key, previews the widget live, copies the snippet that then works on the shop, and revokes the key', async () => {
    const { context, page } = await signedInContext(browser, url, owner.email, owner.password);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url });
    const problems = watchConsole(page);
    try {
      await page
        .getByRole('navigation', { name: 'Dashboard' })
        .getByRole('link', { name: 'Widget', exact: true })
        .click();
      await page.getByRole('heading', { name: 'Widget', level: 1 }).waitFor();
      await page.getByRole('switch', { name: 'Test mode' }).click();
      await page.getByText('No test widget keys yet.').waitFor();
      await expectAccessible(page);

      await page.getByLabel('Name').fill('Shop checkout');
      await page.getByLabel('Allowed origins').fill(`https://www.shop.example\n${shopOrigin}`);
      await page.getByRole('button', { name: 'Create widget key' }).click();
      await page.getByText('Widget key Shop checkout created').waitFor();
      const key = (await page.locator('td code').first().innerText()).trim();
      expect(key).toMatch(/^wk_test_[0-9a-f]{32}$/);
      expect(await page.getByRole('cell', { name: shopOrigin }).count()).toBe(1);

      // The preview is the hosted widget itself: it quotes through the widget API.
      const preview = page.frameLocator('iframe[title="Widget preview"]');
      await preview.getByLabel('Amount').fill('0.1');
      await preview.getByText(/You get about/).waitFor({ timeout: 20_000 });
      await expectAccessible(page);
      await screenshot(page, 'dashboard-widget');

      await page.getByLabel('Theme').selectOption('dark');
      await page.getByLabel('Accent colour').fill('#f59e0b');
      await page.getByRole('button', { name: 'Show preview' }).click();
      await preview.locator('html[data-theme="dark"]').waitFor({ state: 'attached' });
      await preview.getByLabel('Amount').waitFor();
      const snippet = await page.getByLabel('Snippet for Shop checkout').inputValue();
      expect(snippet).toContain(
        `<div data-swap-widget data-key="${key}" data-theme="dark" data-accent="#f59e0b"></div>`,
      );
      expect(snippet).toContain(`src="${url}/widget/v1.js"`);
      expect(snippet).toContain(`integrity="${asset('loader-v1.js').integrity}"`);

      await page.getByRole('button', { name: 'Copy snippet' }).click();
      await page.getByRole('button', { name: 'Copied snippet' }).waitFor();
      const copied = await page.evaluate(() =>
        (
          globalThis as unknown as {
            navigator: { clipboard: { readText(): Promise<string> } };
          }
        ).navigator.clipboard.readText(),
      );
      expect(copied).toBe(snippet);
      await expectAccessible(page);

      // Pasted into a page on the key's origin, the snippet mounts the widget there.
      shopHtml = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body><main><h1>Shop</h1>${snippet}</main></body></html>`;
      const shopPage = await context.newPage();
      const shopProblems = watchConsole(shopPage);
      await shopPage.goto(`${shopOrigin}/`);
      const mounted = shopPage.frameLocator('iframe[title="Swap widget"]');
      await mounted.locator('html[data-theme="dark"]').waitFor({ state: 'attached' });
      await mounted.getByLabel('Amount').fill('0.1');
      await mounted.getByText(/You get about/).waitFor({ timeout: 20_000 });
      expect(shopProblems).toEqual([]);
      await shopPage.close();

      await page
        .getByRole('form', { name: `Revoke ${key}` })
        .getByRole('button', { name: 'Revoke' })
        .click();
      await page.getByText('Widget key Shop checkout revoked').waitFor();
      expect(await page.locator('iframe[title="Widget preview"]').count()).toBe(0);
      await waitUntil(
        'the revoked key to be refused by the hosted widget',
        async () => (await request(url).get(`/widget?key=${key}`)).status === 404,
        5000,
      );
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 180_000);

  it('shows a viewer the keys, the preview and the snippet, without "Create widget key" or "Revoke"', async () => {
    const created = await request(url)
      .post(`/admin/organizations/${orgId}/widget_keys`)
      .set('Authorization', `Bearer ${TEST_ADMIN_TOKEN}`)
      .send({ mode: 'live', name: 'Live shop', allowedOrigins: [shopOrigin] })
      .expect(201);
    const key = (created.body as { widgetKey: { key: string } }).widgetKey.key;
    const viewer = await createDashboardUser(harness.api, orgId, 'viewer');
    const { context, page } = await signedInContext(browser, url, viewer.email, viewer.password);
    const problems = watchConsole(page);
    try {
      await page.goto(`${url}/partner/widget`);

      expect(await page.getByText(key, { exact: true }).isVisible()).toBe(true);
      for (const name of ['Create widget key', 'Revoke']) {
        expect(await page.getByRole('button', { name }).count()).toBe(0);
      }
      const preview = page.frameLocator('iframe[title="Widget preview"]');
      await preview.getByLabel('Amount').waitFor();
      expect(await page.getByLabel('Snippet for Live shop').inputValue()).toContain(key);
      await expectAccessible(page);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
