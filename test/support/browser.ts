import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import type { TestSmtp } from './smtp.js';

export const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOTS = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'docs',
  'screenshots',
);

/** Debian's Chromium, headless (Playwright's own browser download is not available here). */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is absent: apt-get install chromium (.ci/run does)`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * Collects what a person would see as breakage: console errors and uncaught page errors (a CSP
 * violation shows as a console error).
 */
export function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') {
      problems.push(message.text());
    }
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return problems;
}

/** Signs in through the sign-in page, as a person would; ends on the page signed in to. */
export async function signInInBrowser(
  page: Page,
  baseUrl: string,
  email: string,
  password: string,
): Promise<void> {
  await page.goto(`${baseUrl}/partner/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await Promise.all([
    page.waitForURL((url) => !url.pathname.startsWith('/partner/login')),
    page.getByRole('button', { name: 'Sign in' }).click(),
  ]);
}

/** A browser context signed in as the given user (its own cookies). */
export async function signedInContext(
  browser: Browser,
  baseUrl: string,
  email: string,
  password: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInInBrowser(page, baseUrl, email, password);
  return { context, page };
}

/** axe-core on the current page: the serious and critical findings (expect none). */
export async function seriousAxeFindings(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.length} nodes)`);
}

/** Writes a PNG of the page to docs/screenshots/<name>.png (the README shows them). */
export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** An application filled in on the sign-up page, as a person types it. */
export interface BrowserApplication {
  organizationName: string;
  email: string;
  password: string;
  feePercent: string;
}

/**
 * Applies on `/partner/signup`, then follows the link mailed to the address and confirms it, as
 * the applicant does: the page ends on the new organization's Overview, signed in.
 */
export async function applyInBrowser(
  page: Page,
  baseUrl: string,
  smtp: TestSmtp,
  application: BrowserApplication,
): Promise<void> {
  await page.goto(`${baseUrl}/partner/signup`);
  await page.getByLabel('Organization name').fill(application.organizationName);
  await page.getByLabel('Email').fill(application.email);
  await page.getByLabel('Password').fill(application.password);
  await page.getByLabel('Fee percent').fill(application.feePercent);
  await Promise.all([
    page.waitForURL(`${baseUrl}/partner/signup/sent`),
    page.getByRole('button', { name: 'Apply' }).click(),
  ]);
  const mail = await smtp.waitFor(application.email, /Confirm your/);
  const link = mail.links.find((l) => l.includes('/partner/signup/confirm/'));
  if (!link) {
    throw new Error('the confirmation mail has no link');
  }
  await page.goto(link);
  await Promise.all([
    page.waitForURL(`${baseUrl}/partner`),
    page.getByRole('button', { name: 'Confirm application' }).click(),
  ]);
}
