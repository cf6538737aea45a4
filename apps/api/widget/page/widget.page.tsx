import type { CredentialMode } from '#app/domain';
import type { WidgetTheme } from '#app/widgets';
import { asset } from '../../platform/assets/asset.registry.js';
import type { WidgetConfig } from './widget.config.js';
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

/** JSON that can sit in a `<script type="application/json">` block: `<` never closes it. */
function jsonBlock(value: WidgetConfig): string {
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

const T = WIDGET_TEXT;

/** The stylesheet and icon every widget page links (hashed `/assets/` files). */
function Links(): JSX.Element {
  return (
    <>
      <link rel="stylesheet" href={asset('widget.css').url} />
      <link rel="icon" href={asset('favicon.svg').url} type="image/svg+xml" />
    </>
  );
}

function AmountStep(): JSX.Element {
  return (
    <section id="step-amount" aria-labelledby="heading-amount">
      <h2 id="heading-amount" tabindex="-1">
        {T.stepAmount}
      </h2>
      <label for="from">{T.youSend}</label>
      <select id="from" name="from"></select>
      <label for="amount">{T.amount}</label>
      <input
        id="amount"
        name="amount"
        inputmode="decimal"
        autocomplete="off"
        aria-describedby="amount-error"
      />
      <label for="to">{T.youGet}</label>
      <select id="to" name="to"></select>
      <fieldset>
        <legend>{T.rateType}</legend>
        <label>
          <input type="radio" name="mode" id="mode-float" value="float" checked /> {T.floatRate}
        </label>
        <label>
          <input type="radio" name="mode" id="mode-fixed" value="fixed" /> {T.fixedRate}
        </label>
      </fieldset>
      <p id="quote" class="quote" aria-live="polite"></p>
      <p id="amount-error" class="error" role="alert"></p>
      <button type="button" id="continue" class="primary" disabled>
        {T.continue}
      </button>
    </section>
  );
}

function AddressesStep({ mode }: { mode: CredentialMode }): JSX.Element {
  return (
    <section id="step-addresses" aria-labelledby="heading-addresses" hidden>
      <h2 id="heading-addresses" tabindex="-1">
        {T.stepAddresses}
      </h2>
      <label for="address">{T.payoutAddress}</label>
      <input
        id="address"
        name="address"
        autocomplete="off"
        spellcheck="false"
        aria-describedby="payout-hint address-check"
      />
      <p id="payout-hint" class="hint"></p>
      {mode === 'test' ? (
        <button type="button" id="test-address" class="secondary">
          {T.useTestAddress}
        </button>
      ) : (
        ''
      )}
      <p id="address-check" class="hint" aria-live="polite"></p>
      <label for="refund">{T.refundAddress}</label>
      <input
        id="refund"
        name="refund"
        autocomplete="off"
        spellcheck="false"
        aria-describedby="refund-hint refund-check"
      />
      <p id="refund-hint" class="hint"></p>
      <p id="refund-check" class="hint" aria-live="polite"></p>
      <p id="create-error" class="error" role="alert"></p>
      <button type="button" id="back" class="secondary">
        {T.back}
      </button>{' '}
      <button type="button" id="create" class="primary">
        {T.createSwap}
      </button>
    </section>
  );
}

function DepositStep(): JSX.Element {
  return (
    <section id="step-deposit" aria-labelledby="heading-deposit" hidden>
      <h2 id="heading-deposit" tabindex="-1">
        {T.stepDeposit}
      </h2>
      <p>
        {T.sendExactly} <strong id="deposit-amount"></strong> {T.toAddress}
      </p>
      <code id="payin"></code>{' '}
      <button type="button" id="copy" class="secondary">
        {T.copy}
      </button>
      <img id="qr" class="qr" alt={T.qrAlt} hidden />
      <p id="pay-till" hidden></p>
      <p>
        {T.swapId}: <span id="swap-id"></span>
      </p>
      <p>
        {T.status}: <strong id="status" class="status" aria-live="polite"></strong>
      </p>
      <p id="status-detail" class="hint" aria-live="polite"></p>
      <button type="button" id="simulate" class="primary" hidden>
        {T.simulateDeposit}
      </button>
    </section>
  );
}

function OutcomeStep(): JSX.Element {
  return (
    <section id="step-outcome" aria-labelledby="heading-outcome" hidden>
      <h2 id="heading-outcome" tabindex="-1"></h2>
      <p id="outcome-text"></p>
      <p id="outcome-status" hidden>
        {T.status}: <strong id="outcome-status-text" class="status"></strong>
      </p>
      <div id="outcome-hash" hidden>
        <p id="outcome-hash-label"></p>
        <code id="outcome-hash-value"></code>
      </div>
      <p>
        {T.swapId}: <span id="outcome-swap-id"></span>
      </p>
      <button type="button" id="restart" class="secondary" hidden>
        {T.newSwap}
      </button>
    </section>
  );
}

/**
 * The hosted widget: every step is in the page, the script (`web/widget/widget.ts`) shows one at
 * a time. The deposit step leaves the document once the deposit window is over; `step-outcome`
 * then shows the state's own screen (docs/decisions.md, "The widget's screens after the deposit
 * window").
 */
export function renderWidgetPage({ key, mode, options, nonce }: WidgetPageProps): JSX.Element {
  const safeConfigJson = jsonBlock({
    key,
    mode,
    from: options.from,
    to: options.to,
    amount: options.amount,
    parentOrigin: options.parentOrigin,
    text: WIDGET_TEXT,
  });
  // The accent passed widgetAccent: `#` and six hex digits, nothing that could close the element.
  const safeAccentRule = options.accent
    ? `:root{--accent:${options.accent};--accent-fg:${accentForeground(options.accent)}}`
    : null;
  return (
    <>
      {'<!doctype html>'}
      <html lang="en" data-theme={options.theme}>
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title>{T.title}</title>
          <Links />
          {safeAccentRule === null ? '' : <style nonce={nonce}>{safeAccentRule}</style>}
          <script type="application/json" id="widget-config">
            {safeConfigJson}
          </script>
          <script src={asset('widget.js').url} defer></script>
        </head>
        <body>
          <main>
            <h1>{T.title}</h1>
            {mode === 'test' ? <p class="banner">{T.testBanner}</p> : ''}
            <AmountStep />
            <AddressesStep mode={mode} />
            <DepositStep />
            <OutcomeStep />
          </main>
        </body>
      </html>
    </>
  );
}

/** The answer for an unknown or revoked key. */
export function renderNotFoundPage(): JSX.Element {
  return (
    <>
      {'<!doctype html>'}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <title>{T.title}</title>
          <Links />
        </head>
        <body>
          <main>
            <h1>{T.notFound}</h1>
          </main>
        </body>
      </html>
    </>
  );
}
