import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Frame, Page } from 'playwright-core';
import request from 'supertest';
import { asset } from '../apps/api/platform/assets/asset.registry.js';
import { createWidgetKey } from './factories/partners.js';
import { launchChromium } from './support/browser.js';
import { startHarness, type Harness } from './support/harness.js';
import { waitUntil } from './support/wait.js';

const SCREENSHOTS = join(process.cwd(), 'docs', 'screenshots');

interface Relayed {
  origin: string;
  source: string;
  type: string;
  data: { swap: { id: string; status: string }; previousStatus?: string };
}

/** A partner's page: the loader, pinned by its integrity hash, and a listener for its events. */
function partnerPage(apiUrl: string, key: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Partner shop</title></head>
<body>
<main><h1>Partner shop</h1>
<div data-swap-widget data-key="${key}" data-from="btc" data-to="eth" data-amount="0.1"></div>
</main>
<script>
  window.received = [];
  window.addEventListener('message', function (event) {
    if (event.data && event.data.source === 'swap-widget') {
      window.received.push({ origin: event.origin, source: event.data.source, type: event.data.type, data: event.data.data });
    }
  });
</script>
<script src="${apiUrl}/widget.js" integrity="${asset('loader.js').integrity}" crossorigin="anonymous"></script>
</body></html>`;
}

/**
 * The widget in a real browser: a partner page on a second local origin embeds the loader, an
 * end user swaps from pair to "Finished" (a poller process moves the test swap along), the page
 * hears the events; the same page on an unlisted origin gets nothing; axe finds nothing serious.
 */
describe('The swap widget in a browser', () => {
  let h: Harness;
  let shop: Server;
  let shopPort: number;
  let browser: Browser;
  let key: string;

  beforeAll(async () => {
    // An organization under review takes test swaps only; the poller moves them along.
    h = await startHarness({
      sandbox: { stepMs: 300 },
      partner: { status: 'pending_review', mode: 'test' },
      poller: { POLL_INTERVAL_MS: '30000', TEST_POLL_INTERVAL_MS: '500' },
    });
    let html = '';
    shop = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(html);
    });
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
    shopPort = (shop.address() as AddressInfo).port;
    key = await createWidgetKey(h.api.app, h.partner.organizationId, [
      `http://127.0.0.1:${shopPort}`,
    ]);
    html = partnerPage(h.api.url, key);
    browser = await launchChromium();
    mkdirSync(SCREENSHOTS, { recursive: true });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => shop.close(() => resolve()));
    await h?.close();
  });

  async function testAddress(): Promise<string> {
    const res = await h.get('/v1/test_helpers/addresses?currency=eth').expect(200);
    return (res.body as { addresses: string[] }).addresses[0];
  }

  async function widgetFrame(page: Page): Promise<Frame> {
    const handle = await page.waitForSelector('iframe[title="Swap widget"]');
    const frame = await handle.contentFrame();
    if (!frame) {
      throw new Error('the widget frame has no document');
    }
    return frame;
  }

  async function seriousFindings(page: Page): Promise<string[]> {
    const results = await new AxeBuilder({ page }).analyze();
    return results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.help}`);
  }

  it('takes an end user from a pair to "Finished", telling the page', async () => {
    const context = await browser.newContext({ viewport: { width: 520, height: 900 } });
    const page = await context.newPage();
    const problems: string[] = [];
    const elsewhere: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') {
        problems.push(message.text());
      }
    });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('request', (req) => {
      const url = req.url();
      if (
        !url.startsWith(h.api.url) &&
        !url.startsWith(`http://127.0.0.1:${shopPort}`) &&
        !url.startsWith('blob:')
      ) {
        elsewhere.push(url);
      }
    });
    try {
      await page.goto(`http://127.0.0.1:${shopPort}/`);
      const frame = await widgetFrame(page);
      const iframe = page.locator('iframe[title="Swap widget"]');

      await frame.getByText(/You get about/).waitFor({ timeout: 20_000 });
      expect(await frame.getByLabel('Amount').inputValue()).toBe('0.1');
      expect(await seriousFindings(page)).toEqual([]);
      await iframe.screenshot({ path: join(SCREENSHOTS, 'widget-amount.png') });

      // Out of the pair's limits: said at once, without a refused request in the console.
      await frame.getByLabel('Amount').fill('0.00000001');
      await frame.getByText(/Send between/).waitFor({ timeout: 10_000 });
      expect(await frame.getByRole('button', { name: 'Continue' }).isDisabled()).toBe(true);
      await frame.getByLabel('Amount').fill('0.1');
      await frame.getByText(/You get about/).waitFor({ timeout: 20_000 });

      await frame.getByRole('button', { name: 'Continue' }).click();
      await frame.getByLabel('Payout address').fill(await testAddress());
      await frame.getByText('Valid address.').waitFor({ timeout: 15_000 });
      expect(await seriousFindings(page)).toEqual([]);
      await iframe.screenshot({ path: join(SCREENSHOTS, 'widget-addresses.png') });

      await frame.getByRole('button', { name: 'Create swap' }).click();
      await frame.getByText('Waiting for your deposit').waitFor({ timeout: 20_000 });
      await frame.getByRole('img', { name: 'QR code of the deposit address' }).waitFor();
      await waitUntil(
        'the page to hear swap.created',
        async () =>
          (
            await page.evaluate(() => (globalThis as unknown as { received: Relayed[] }).received)
          ).some((m) => m.type === 'swap.created'),
        10_000,
      );
      expect(await seriousFindings(page)).toEqual([]);
      await iframe.screenshot({ path: join(SCREENSHOTS, 'widget-deposit.png') });

      await frame.getByRole('button', { name: 'Simulate deposit' }).click();
      await frame.getByText('Finished', { exact: true }).waitFor({ timeout: 60_000 });
      await iframe.screenshot({ path: join(SCREENSHOTS, 'widget-finished.png') });

      const received = await page.evaluate(
        () => (globalThis as unknown as { received: Relayed[] }).received,
      );
      const shopOrigin = `http://127.0.0.1:${shopPort}`;
      const created = received.find((m) => m.type === 'swap.created');
      expect(created).toMatchObject({ origin: shopOrigin, source: 'swap-widget' });
      const changes = received.filter((m) => m.type === 'swap.status_changed');
      expect(changes.every((m) => m.origin === shopOrigin)).toBe(true);
      expect(changes.every((m) => m.data.swap.id === created?.data.swap.id)).toBe(true);
      expect(changes.at(-1)?.data.swap.status).toBe('finished');
      expect(problems).toEqual([]);
      expect(elsewhere).toEqual([]);
    } finally {
      await context.close();
    }
  }, 180_000);

  it('shows the dark theme with an accent colour', async () => {
    const context = await browser.newContext({ viewport: { width: 480, height: 640 } });
    const page = await context.newPage();
    try {
      await page.goto(`${h.api.url}/widget?key=${key}&theme=dark&accent=f59e0b&amount=0.5`);
      await page.getByText(/You get about/).waitFor({ timeout: 20_000 });
      expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
      expect(await seriousFindings(page)).toEqual([]);
      await page.screenshot({ path: join(SCREENSHOTS, 'widget-dark.png') });
    } finally {
      await context.close();
    }
  }, 60_000);

  it('counts the fixed rate down once the person picks fixed', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const secondsLeft = async (): Promise<number | null> => {
      const match = /Rate fixed for (\d+):(\d\d)/.exec(await page.locator('#quote').innerText());
      return match ? Number(match[1]) * 60 + Number(match[2]) : null;
    };
    try {
      await page.goto(`${h.api.url}/widget?key=${key}&from=btc&to=eth&amount=0.1`);
      await page.getByText(/You get about/).waitFor({ timeout: 20_000 });
      expect(await secondsLeft()).toBeNull();

      await page.getByLabel('Fixed rate').check();
      await page.getByText(/Rate fixed for \d+:\d\d/).waitFor({ timeout: 20_000 });
      const first = (await secondsLeft()) ?? 0;
      expect(first).toBeGreaterThan(0);
      // However slow the machine, a later reading within a generous wait is lower.
      const readings: (number | null)[] = [];
      await waitUntil(
        'the fixed rate countdown to go down',
        async () => {
          readings.push(await secondsLeft());
          return (readings.at(-1) ?? first) < first;
        },
        20_000,
        250,
      );
      expect(readings.at(-1)).toBeLessThan(first);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('cannot be framed, nor its API called, from an origin the key does not list', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      // Another origin for the same page: the key lists 127.0.0.1, not localhost.
      await page.goto(`http://localhost:${shopPort}/`);
      await page.waitForSelector('iframe[title="Swap widget"]');
      await page.waitForTimeout(2_000);
      const rendered = await Promise.all(
        page.frames().map((frame) =>
          frame
            .locator('#amount')
            .count()
            .catch(() => 0),
        ),
      );
      expect(rendered.reduce((a, b) => a + b, 0)).toBe(0);

      const outcome = await page.evaluate(
        async ({ url, widgetKey }) => {
          try {
            const res = await fetch(`${url}/widget-api/v1/currencies`, {
              headers: { 'X-Widget-Key': widgetKey },
            });
            return `answered ${res.status}`;
          } catch {
            return 'refused';
          }
        },
        { url: h.api.url, widgetKey: key },
      );
      expect(outcome).toBe('refused');
      const direct = await request(h.api.url)
        .get('/widget-api/v1/currencies')
        .set('X-Widget-Key', key)
        .set('Origin', `http://localhost:${shopPort}`);
      expect(direct.status).toBe(403);
      expect(direct.body.error.code).toBe('origin_not_allowed');
    } finally {
      await context.close();
    }
  }, 60_000);
});
