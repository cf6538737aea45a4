import type { CredentialMode } from '#app/domain';
import type { WidgetTheme } from '#app/widgets';
import { FAVICON } from '../../platform/assets/dashboard.assets.js';
import { WIDGET_ASSETS } from '../../platform/assets/widget.assets.js';
import { WIDGET_TEXT } from './widget.text.js';

/** The options a partner page may pass (as query parameters or the loader's data attributes). */
export interface WidgetOptions {
  from: string | null;
  to: string | null;
  amount: string | null;
  theme: WidgetTheme;
  accent: string | null;
  /** The embedding page's origin, already checked against the key's list; null: post nothing. */
  parentOrigin: string | null;
}

export interface WidgetPageProps {
  key: string;
  mode: CredentialMode;
  options: WidgetOptions;
  nonce: string;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JSON that can sit in a `<script type="application/json">` block: `<` never closes it. */
function jsonBlock(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/** Black or white, whichever reads better on the accent (WCAG relative luminance). */
function accentForeground(hex: string): string {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return (luminance + 0.05) / 0.05 > 1.05 / (luminance + 0.05) ? '#000000' : '#ffffff';
}

const t = (text: string) => escapeHtml(text);

/**
 * The hosted widget: every step is in the page, the script shows one at a time. The deposit step
 * leaves the document once the deposit window is over; `step-outcome` then shows the state's own
 * screen (docs/decisions.md, "The widget's screens after the deposit window").
 */
export function renderWidgetPage({ key, mode, options, nonce }: WidgetPageProps): string {
  const config = {
    key,
    mode,
    from: options.from,
    to: options.to,
    amount: options.amount,
    parentOrigin: options.parentOrigin,
    text: WIDGET_TEXT,
  };
  const accent = options.accent
    ? `<style nonce="${nonce}">:root{--accent:${options.accent};--accent-fg:${accentForeground(options.accent)}}</style>`
    : '';
  return `<!doctype html>
<html lang="en" data-theme="${options.theme}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${t(WIDGET_TEXT.title)}</title>
<link rel="stylesheet" href="/widget/assets/${WIDGET_ASSETS.styles.name}">
<link rel="icon" href="${FAVICON.url}" type="image/svg+xml">
${accent}
<script type="application/json" id="widget-config">${jsonBlock(config)}</script>
<script src="/widget/assets/${WIDGET_ASSETS.script.name}" defer></script>
</head>
<body>
<main>
<h1>${t(WIDGET_TEXT.title)}</h1>
${mode === 'test' ? `<p class="banner">${t(WIDGET_TEXT.testBanner)}</p>` : ''}
<section id="step-amount" aria-labelledby="heading-amount">
<h2 id="heading-amount" tabindex="-1">${t(WIDGET_TEXT.stepAmount)}</h2>
<label for="from">${t(WIDGET_TEXT.youSend)}</label>
<select id="from" name="from"></select>
<label for="amount">${t(WIDGET_TEXT.amount)}</label>
<input id="amount" name="amount" inputmode="decimal" autocomplete="off" aria-describedby="amount-error">
<label for="to">${t(WIDGET_TEXT.youGet)}</label>
<select id="to" name="to"></select>
<fieldset>
<legend>${t(WIDGET_TEXT.rateType)}</legend>
<label><input type="radio" name="mode" id="mode-float" value="float" checked> ${t(WIDGET_TEXT.floatRate)}</label>
<label><input type="radio" name="mode" id="mode-fixed" value="fixed"> ${t(WIDGET_TEXT.fixedRate)}</label>
</fieldset>
<p id="quote" class="quote" aria-live="polite"></p>
<p id="amount-error" class="error" role="alert"></p>
<button type="button" id="continue" class="primary" disabled>${t(WIDGET_TEXT.continue)}</button>
</section>
<section id="step-addresses" aria-labelledby="heading-addresses" hidden>
<h2 id="heading-addresses" tabindex="-1">${t(WIDGET_TEXT.stepAddresses)}</h2>
<label for="address">${t(WIDGET_TEXT.payoutAddress)}</label>
<input id="address" name="address" autocomplete="off" spellcheck="false" aria-describedby="payout-hint address-check">
<p id="payout-hint" class="hint"></p>
${mode === 'test' ? `<button type="button" id="test-address" class="secondary">${t(WIDGET_TEXT.useTestAddress)}</button>` : ''}
<p id="address-check" class="hint" aria-live="polite"></p>
<label for="refund">${t(WIDGET_TEXT.refundAddress)}</label>
<input id="refund" name="refund" autocomplete="off" spellcheck="false" aria-describedby="refund-hint refund-check">
<p id="refund-hint" class="hint"></p>
<p id="refund-check" class="hint" aria-live="polite"></p>
<p id="create-error" class="error" role="alert"></p>
<button type="button" id="back" class="secondary">${t(WIDGET_TEXT.back)}</button>
<button type="button" id="create" class="primary">${t(WIDGET_TEXT.createSwap)}</button>
</section>
<section id="step-deposit" aria-labelledby="heading-deposit" hidden>
<h2 id="heading-deposit" tabindex="-1">${t(WIDGET_TEXT.stepDeposit)}</h2>
<p>${t(WIDGET_TEXT.sendExactly)} <strong id="deposit-amount"></strong> ${t(WIDGET_TEXT.toAddress)}</p>
<code id="payin"></code>
<button type="button" id="copy" class="secondary">${t(WIDGET_TEXT.copy)}</button>
<img id="qr" class="qr" alt="${t(WIDGET_TEXT.qrAlt)}" hidden>
<p id="pay-till" hidden></p>
<p>${t(WIDGET_TEXT.swapId)}: <span id="swap-id"></span></p>
<p>${t(WIDGET_TEXT.status)}: <strong id="status" class="status" aria-live="polite"></strong></p>
<p id="status-detail" class="hint" aria-live="polite"></p>
<button type="button" id="simulate" class="primary" hidden>${t(WIDGET_TEXT.simulateDeposit)}</button>
</section>
<section id="step-outcome" aria-labelledby="heading-outcome" hidden>
<h2 id="heading-outcome" tabindex="-1"></h2>
<p id="outcome-text"></p>
<p id="outcome-status" hidden>${t(WIDGET_TEXT.status)}: <strong id="outcome-status-text" class="status"></strong></p>
<div id="outcome-hash" hidden>
<p id="outcome-hash-label"></p>
<code id="outcome-hash-value"></code>
</div>
<p>${t(WIDGET_TEXT.swapId)}: <span id="outcome-swap-id"></span></p>
<button type="button" id="restart" class="secondary" hidden>${t(WIDGET_TEXT.newSwap)}</button>
</section>
</main>
</body>
</html>
`;
}

/** The answer for an unknown or revoked key. */
export function renderNotFoundPage(): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${t(WIDGET_TEXT.title)}</title>
<link rel="stylesheet" href="/widget/assets/${WIDGET_ASSETS.styles.name}">
<link rel="icon" href="${FAVICON.url}" type="image/svg+xml"></head>
<body><main><h1>${t(WIDGET_TEXT.notFound)}</h1></main></body>
</html>
`;
}
