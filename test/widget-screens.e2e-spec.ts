import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { createWidgetKey } from './factories/partners.js';
import { launchChromium, screenshot, seriousAxeFindings, watchConsole } from './support/browser.js';
import { startHarness, type Harness } from './support/harness.js';

interface ApiSwap {
  id: string;
  status: string;
  payinAddress: string;
  payoutHash: string | null;
  refundHash?: string | null;
  payTill: string | null;
}

const SHOP = 'https://shop.example';

/**
 * The widget after the deposit window (DECISIONS §7, "Terminal screens"): each state has its own
 * screen, and none of them shows the deposit amount, address or QR code again, so an end user
 * cannot pay twice. A test key's widget fills valid addresses with "Use a test address". Swaps
 * are created in the page as a person would, then moved by the partner API's test helpers; the
 * widget's own status refresh brings each screen.
 */
describe('The widget after the deposit window', () => {
  let h: Harness;
  let browser: Browser;
  let key: string;
  /** Each swap's status token, as its creation answered it to the page. */
  const statusTokens = new Map<string, string>();

  beforeAll(async () => {
    // An organization under review, with a test key: its swaps are moved by the test helpers.
    h = await startHarness({
      sandbox: { stepMs: 300 },
      partner: { status: 'pending_review', mode: 'test' },
    });
    key = await createWidgetKey(h.api.app, h.partner.organizationId, [SHOP]);
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  async function partnerSwap(id: string): Promise<ApiSwap> {
    const res = await h.get(`/v1/swaps/${id}`).expect(200);
    return (res.body as { swap: ApiSwap }).swap;
  }

  /** The widget's own read of the swap, as its page makes it (the status token is the page's). */
  async function widgetRefundHash(id: string): Promise<string | null> {
    const res = await request(h.api.url)
      .get(`/widget-api/v1/swaps/${id}`)
      .set('X-Widget-Key', key)
      .set('Origin', SHOP)
      .set('X-Swap-Token', statusTokens.get(id) ?? '')
      .expect(200);
    return (res.body as { swap: ApiSwap }).swap.refundHash ?? null;
  }

  async function force(id: string, status: string): Promise<void> {
    await h.post(`/v1/test_helpers/swaps/${id}/status`, { status }).expect(200);
  }

  /** Pair, amount, "Use a test address", "Create swap": the deposit step, as a person sees it. */
  async function createInWidget(page: Page, rate: 'float' | 'fixed'): Promise<ApiSwap> {
    await page.goto(`${h.api.url}/widget?key=${key}&from=btc&to=eth&amount=0.1`);
    await page.getByText(/You get about/).waitFor({ timeout: 20_000 });
    if (rate === 'fixed') {
      await page.getByLabel('Fixed rate').check();
      await page.getByText(/Rate fixed for/).waitFor({ timeout: 20_000 });
    }
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Use a test address' }).click();
    await page.locator('#address-check').getByText('Valid address.').waitFor({ timeout: 15_000 });
    if (rate === 'fixed') {
      await page.locator('#refund-check').getByText('Valid address.').waitFor({ timeout: 15_000 });
    }
    const creation = page.waitForResponse(
      (res) => res.url().endsWith('/widget-api/v1/swaps') && res.request().method() === 'POST',
    );
    await page.getByRole('button', { name: 'Create swap' }).click();
    const created = (await (await creation).json()) as { swap: ApiSwap; statusToken: string };
    statusTokens.set(created.swap.id, created.statusToken);
    await page.getByText('Waiting for your deposit').waitFor({ timeout: 20_000 });
    await page.getByRole('img', { name: 'QR code of the deposit address' }).waitFor();
    expect(await page.getByText(/Send exactly/).isVisible()).toBe(true);
    return partnerSwap(await page.locator('#swap-id').innerText());
  }

  /** Nothing left in the page to pay with: no amount to send, no address, no QR code. */
  async function expectNoDepositInstruction(page: Page, swap: ApiSwap): Promise<void> {
    expect(await page.getByText(/Send exactly/).count()).toBe(0);
    expect(await page.getByRole('img', { name: /QR code/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Copy address' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Simulate deposit' }).count()).toBe(0);
    expect(await page.locator('body').textContent()).not.toContain(swap.payinAddress);
  }

  async function withPage(run: (page: Page, problems: string[]) => Promise<void>): Promise<void> {
    const context = await browser.newContext({ viewport: { width: 480, height: 820 } });
    const page = await context.newPage();
    const problems = watchConsole(page);
    page.on('response', (res) => {
      if (res.status() >= 400) {
        problems.push(`${res.status()} ${res.url()}`);
      }
    });
    try {
      await run(page, problems).catch((error: unknown) => {
        // What the page met on the way (4xx/5xx answers, console errors) says why it stopped.
        const message = error instanceof Error ? error.message : String(error);
        throw new Error(`${message}\nThe page met: ${problems.join('; ') || 'nothing'}`);
      });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }

  it('"Finished" shows the payout hash and no deposit instruction', async () => {
    await withPage(async (page) => {
      const swap = await createInWidget(page, 'float');
      await force(swap.id, 'finished');
      await page.getByRole('heading', { name: 'Finished' }).waitFor({ timeout: 30_000 });
      const payoutHash = (await partnerSwap(swap.id)).payoutHash;
      expect(payoutHash).toEqual(expect.any(String));
      await page.getByText('Payout transaction').waitFor();
      expect(await page.getByText(payoutHash ?? '').isVisible()).toBe(true);
      await expectNoDepositInstruction(page, swap);
      expect(await page.getByRole('button', { name: 'New swap' }).isVisible()).toBe(true);
      expect(await seriousAxeFindings(page)).toEqual([]);
    });
  }, 120_000);

  it('"Deposit received" follows the swap without repeating the address, then "Swap failed"', async () => {
    await withPage(async (page) => {
      const swap = await createInWidget(page, 'float');
      await page.getByRole('button', { name: 'Simulate deposit' }).click();
      await page.getByRole('heading', { name: 'Deposit received' }).waitFor({ timeout: 30_000 });
      await expectNoDepositInstruction(page, swap);
      await force(swap.id, 'failed');
      await page.getByRole('heading', { name: 'Swap failed' }).waitFor({ timeout: 30_000 });
      await page.getByText(/Contact support with the swap id/).waitFor();
      expect(await page.getByText(swap.id).isVisible()).toBe(true);
      await expectNoDepositInstruction(page, swap);
      expect(await seriousAxeFindings(page)).toEqual([]);
    });
  }, 120_000);

  it('"Refunded" says where the deposit went, with the refund hash', async () => {
    await withPage(async (page) => {
      const swap = await createInWidget(page, 'fixed');
      await force(swap.id, 'refunded');
      await page.getByRole('heading', { name: 'Refunded' }).waitFor({ timeout: 30_000 });
      await page.getByText('Your deposit went back to your refund address.').waitFor();
      const refundHash = await widgetRefundHash(swap.id);
      expect(refundHash).toEqual(expect.any(String));
      await page.getByText('Refund transaction').waitFor({ timeout: 30_000 });
      expect(await page.getByText(refundHash ?? '').isVisible()).toBe(true);
      // The partner API's Swap resource keeps the spec's fields.
      expect(await partnerSwap(swap.id)).not.toHaveProperty('refundHash');
      await expectNoDepositInstruction(page, swap);
      expect(await seriousAxeFindings(page)).toEqual([]);
      await screenshot(page, 'widget-refunded');
    });
  }, 120_000);

  it('"Expired" after a late deposit to a fixed rate', async () => {
    await withPage(async (page) => {
      const swap = await createInWidget(page, 'fixed');
      await h.post(`/v1/test_helpers/swaps/${swap.id}/deposit`, { late: true }).expect(200);
      await page.getByRole('heading', { name: 'Expired' }).waitFor({ timeout: 30_000 });
      await page.getByText(/The fixed rate ran out/).waitFor();
      await expectNoDepositInstruction(page, swap);
      expect(await seriousAxeFindings(page)).toEqual([]);
    });
  }, 120_000);

  it('"Deposit window closed" once a fixed rate\'s payTill passes with the swap still waiting', async () => {
    await withPage(async (page) => {
      // The page's clock, not the server's: its own timer closes the window at payTill.
      await page.clock.install();
      const swap = await createInWidget(page, 'fixed');
      expect(swap.payTill).not.toBeNull();
      await page.clock.fastForward(Date.parse(swap.payTill!) - Date.now() + 5_000);
      await page
        .getByRole('heading', { name: 'Deposit window closed' })
        .waitFor({ timeout: 30_000 });
      await page.getByText(/do not send anything now/).waitFor();
      expect((await partnerSwap(swap.id)).status).toBe('waiting');
      await expectNoDepositInstruction(page, swap);
      expect(await seriousAxeFindings(page)).toEqual([]);
    });
  }, 120_000);

  it('"Overdue" when no deposit came in time', async () => {
    await withPage(async (page) => {
      const swap = await createInWidget(page, 'float');
      await force(swap.id, 'overdue');
      await page.getByRole('heading', { name: 'Overdue' }).waitFor({ timeout: 30_000 });
      await page.getByText(/No deposit arrived in time/).waitFor();
      await expectNoDepositInstruction(page, swap);
      expect(await seriousAxeFindings(page)).toEqual([]);
    });
  }, 120_000);

  it('"On hold" says what happens next', async () => {
    await withPage(async (page) => {
      const swap = await createInWidget(page, 'float');
      await force(swap.id, 'hold');
      await page.getByRole('heading', { name: 'On hold' }).waitFor({ timeout: 30_000 });
      await page.getByText(/support will contact you/).waitFor();
      await expectNoDepositInstruction(page, swap);
      // Not over yet: nothing to start again from.
      expect(await page.getByRole('button', { name: 'New swap' }).isVisible()).toBe(false);
      expect(await seriousAxeFindings(page)).toEqual([]);
      await screenshot(page, 'widget-hold');
    });
  }, 120_000);

  it('"Use a test address" fills valid payout and refund addresses for a fixed rate', async () => {
    await withPage(async (page) => {
      await page.goto(`${h.api.url}/widget?key=${key}&from=btc&to=eth&amount=0.1`);
      await page.getByText(/You get about/).waitFor({ timeout: 20_000 });
      await page.getByLabel('Fixed rate').check();
      await page.getByText(/Rate fixed for/).waitFor({ timeout: 20_000 });
      await page.getByRole('button', { name: 'Continue' }).click();
      expect(await page.getByLabel('Payout address').inputValue()).toBe('');
      await page.getByRole('button', { name: 'Use a test address' }).click();
      await page.locator('#address-check').getByText('Valid address.').waitFor({ timeout: 15_000 });
      await page.locator('#refund-check').getByText('Valid address.').waitFor({ timeout: 15_000 });
      expect(await page.getByLabel('Payout address').inputValue()).toMatch(/^0x[0-9a-fA-F]{40}$/);
      expect(await page.getByLabel('Refund address').inputValue()).not.toBe('');
      expect(await seriousAxeFindings(page)).toEqual([]);
      await screenshot(page, 'widget-test-address');
    });
  }, 120_000);

  it('offers no test address with a live key, whose API refuses to give one', async () => {
    const active = await h.newPartner();
    const liveKey = await createWidgetKey(h.api.app, active.organizationId, [SHOP], {
      mode: 'live',
      name: 'Live shop',
    });
    const page = await request(h.api.url).get(`/widget?key=${liveKey}`).expect(200);
    expect(page.text).not.toMatch(/<button[^>]*>Use a test address</);
    const refused = await request(h.api.url)
      .get('/widget-api/v1/test_helpers/addresses?currency=eth')
      .set('X-Widget-Key', liveKey)
      .set('Origin', SHOP)
      .expect(403);
    expect(refused.body.error.code).toBe('test_mode_only');
    const test = await request(h.api.url)
      .get('/widget-api/v1/test_helpers/addresses?currency=eth')
      .set('X-Widget-Key', key)
      .set('Origin', SHOP)
      .expect(200);
    expect((test.body as { addresses: string[] }).addresses.length).toBeGreaterThan(0);
  }, 60_000);
});
