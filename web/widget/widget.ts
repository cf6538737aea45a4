/**
 * The hosted widget's own script, served as a file with a hashed name (no inline script, no
 * framework, no third-party request). It reads its configuration from the page's JSON data
 * block, talks to `/widget-api/v1` on this origin with the page's widget key, and tells the
 * embedding page (only the origin the loader named, which the server checked against the key's
 * list) about `swap.created`, `swap.status_changed` and its height.
 */
import type { WidgetConfig } from '../../apps/api/widget/page/widget.config.js';
import type { FrameMessage } from './messages.js';

interface Currency {
  ticker: string;
  fullName: string;
  enabled: boolean;
  enabledFrom: boolean;
  enabledTo: boolean;
  blockchainPrecision: number;
}

interface Pair {
  minAmountFloat: string;
  maxAmountFloat: string;
  minAmountFixed: string;
  maxAmountFixed: string;
}

interface Quote {
  from: string;
  to: string;
  amountFrom: string;
  amountUserReceives: string;
  mode: 'float' | 'fixed';
  rateId?: string;
  expiresAt: string;
}

interface Swap {
  id: string;
  status: string;
  from: string;
  to: string;
  amountExpectedFrom: string;
  amountExpectedTo: string;
  amountActualTo?: string | null;
  payinAddress: string;
  payTill?: string | null;
  payoutHash?: string | null;
  refundHash?: string | null;
}

type Screen = keyof WidgetConfig['text']['screens'];
type Values = Record<string, string | number | undefined>;

/** An error the widget API answered, with its code. */
class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

const config = JSON.parse(
  document.getElementById('widget-config')?.textContent ?? '{}',
) as WidgetConfig;
const T = config.text;
const API = '/widget-api/v1';
const TERMINAL = ['finished', 'failed', 'refunded', 'overdue', 'expired'];
const PROGRESS = ['confirming', 'exchanging', 'sending'];
const POLL_MS = 3000;
const HOLD_POLL_MS = 15000;
const HASH_POLL_MS = 10000;
const HASH_POLLS = 30;

function $<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) {
    throw new Error(`widget: no #${id}`);
  }
  return element as T;
}

const sections = {
  amount: $('step-amount'),
  addresses: $('step-addresses'),
  deposit: $('step-deposit'),
  outcome: $('step-outcome'),
};
type Step = keyof typeof sections;

/** The deposit step's own elements: found while the step is out of the document too. */
function d<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = sections.deposit.querySelector<T>(`#${id}`);
  if (!element) {
    throw new Error(`widget: no #${id} in the deposit step`);
  }
  return element;
}

const fromSelect = $<HTMLSelectElement>('from');
const toSelect = $<HTMLSelectElement>('to');
const amountInput = $<HTMLInputElement>('amount');
const addressInput = $<HTMLInputElement>('address');
const refundInput = $<HTMLInputElement>('refund');
const continueButton = $<HTMLButtonElement>('continue');
const createButton = $<HTMLButtonElement>('create');
const testAddressButton = document.getElementById('test-address') as HTMLButtonElement | null;

const state: {
  currencies: Currency[];
  quote: Quote | null;
  quoteSeq: number;
  swap: Swap | null;
  token: string | null;
  idempotencyKey: { body: string; key: string } | null;
  pollTimer: number | undefined;
  countdown: number | undefined;
  screen: Screen | 'deposit' | null;
  windowTimer: number | undefined;
  qrFor: string | null;
  hashPolls: number;
} = {
  currencies: [],
  quote: null,
  quoteSeq: 0,
  swap: null,
  token: null,
  idempotencyKey: null,
  pollTimer: undefined,
  countdown: undefined,
  screen: null,
  windowTimer: undefined,
  qrFor: null,
  hashPolls: 0,
};

/** The swap the deposit and outcome steps show: there is one from its creation on. */
function currentSwap(): Swap {
  if (!state.swap) {
    throw new Error('widget: no swap');
  }
  return state.swap;
}

function fill(template: string, values: Values): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) =>
    values[name] === undefined ? '' : String(values[name]),
  );
}

function post(type: string, data: unknown): void {
  if (config.parentOrigin && window.parent !== window) {
    const message: FrameMessage = { source: 'swap-widget-frame', type, data };
    window.parent.postMessage(message, config.parentOrigin);
  }
}

async function api<R>(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<R> {
  const init: RequestInit & { headers: Record<string, string> } = {
    method,
    headers: { 'X-Widget-Key': config.key, ...headers },
    credentials: 'same-origin',
  };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const res = await fetch(API + path, init);
  const json = (await res.json().catch(() => ({}))) as {
    error?: { message?: string; code?: string };
  };
  if (!res.ok) {
    throw new ApiError(json.error?.message || T.genericError, json.error?.code);
  }
  return json as R;
}

/**
 * Shows one step. The deposit step is in the document only while the deposit window is open:
 * afterwards no address, amount or QR code to pay is left anywhere on the page.
 */
function show(step: Step): void {
  if (step === 'deposit' && !sections.deposit.isConnected) {
    sections.outcome.before(sections.deposit);
  }
  if (step !== 'deposit' && sections.deposit.isConnected) {
    closeDeposit();
  }
  for (const name of Object.keys(sections) as Step[]) {
    sections[name].hidden = name !== step;
  }
  sections[step].querySelector('h2')?.focus();
  resized();
}

function closeDeposit(): void {
  clearTimeout(state.windowTimer);
  for (const id of ['deposit-amount', 'payin', 'swap-id', 'pay-till', 'status', 'status-detail']) {
    d(id).textContent = '';
  }
  const qr = d<HTMLImageElement>('qr');
  if (qr.src) {
    URL.revokeObjectURL(qr.src);
  }
  qr.removeAttribute('src');
  qr.hidden = true;
  state.qrFor = null;
  sections.deposit.remove();
}

/** Assigns only a change, so a live region is not read out again on every poll. */
function setText(element: HTMLElement, text: string): void {
  if (element.textContent !== text) {
    element.textContent = text;
  }
}

function resized(): void {
  post('resize', { height: Math.ceil(document.documentElement.scrollHeight) });
}

function uuid(): string {
  if (typeof window.crypto.randomUUID === 'function') {
    return window.crypto.randomUUID();
  }
  const b = window.crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 15) | 64;
  b[8] = (b[8] & 63) | 128;
  const h = Array.from(b, (x) => (x + 256).toString(16).slice(1)).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function rateMode(): 'fixed' | 'float' {
  return $<HTMLInputElement>('mode-fixed').checked ? 'fixed' : 'float';
}

function option(currency: Currency): HTMLOptionElement {
  const o = document.createElement('option');
  o.value = currency.ticker;
  o.textContent = `${currency.fullName} (${currency.ticker.toUpperCase()})`;
  return o;
}

function loadCurrencies(): Promise<void> {
  $('quote').textContent = T.loading;
  return api<{ currencies: Currency[] }>('GET', '/currencies')
    .then((json) => {
      state.currencies = json.currencies.filter((c) => c.enabled);
      state.currencies
        .filter((c) => c.enabledFrom)
        .forEach((c) => fromSelect.appendChild(option(c)));
      state.currencies.filter((c) => c.enabledTo).forEach((c) => toSelect.appendChild(option(c)));
      pick(fromSelect, config.from, 0);
      pick(
        toSelect,
        config.to,
        toSelect.options.length > 1 && toSelect.options[0].value === fromSelect.value ? 1 : 0,
      );
      if (config.amount) {
        amountInput.value = config.amount;
      }
      requestQuote();
    })
    .catch(() => {
      $('quote').textContent = T.loadFailed;
    });
}

function pick(select: HTMLSelectElement, ticker: string | null, fallback: number): void {
  for (let i = 0; i < select.options.length; i++) {
    if (select.options[i].value === ticker) {
      select.selectedIndex = i;
      return;
    }
  }
  select.selectedIndex = Math.min(fallback, select.options.length - 1);
}

let quoteTimer: number | undefined;
function requestQuote(): void {
  clearTimeout(quoteTimer);
  quoteTimer = window.setTimeout(quote, 350);
}

/** Decimal strings compared digit by digit: amounts are never floats. */
function compareDecimals(a: string, b: string): number {
  const [ia = '', fa = ''] = a.split('.');
  const [ib = '', fb = ''] = b.split('.');
  const wa = ia.replace(/^0+(?=\d)/, '');
  const wb = ib.replace(/^0+(?=\d)/, '');
  if (wa.length !== wb.length) {
    return wa.length < wb.length ? -1 : 1;
  }
  if (wa !== wb) {
    return wa < wb ? -1 : 1;
  }
  const width = Math.max(fa.length, fb.length);
  const pa = fa.padEnd(width, '0');
  const pb = fb.padEnd(width, '0');
  return pa === pb ? 0 : pa < pb ? -1 : 1;
}

const pairs: Record<string, Promise<Pair> | undefined> = {};
function pairLimits(from: string, to: string): Promise<Pair> {
  const name = `${from}:${to}`;
  const cached = pairs[name];
  if (cached) {
    return cached;
  }
  const asked = api<{ pair: Pair }>(
    'GET',
    `/pairs?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
  )
    .then((json) => json.pair)
    .catch((error: unknown) => {
      delete pairs[name];
      throw error;
    });
  pairs[name] = asked;
  return asked;
}

function currency(ticker: string): Currency | undefined {
  return state.currencies.find((c) => c.ticker === ticker);
}

/** What the amount lacks before a quote can be asked for (so normal flows answer 2xx), or null. */
function amountProblem(amount: string, from: string, pair: Pair): string | null {
  if (!/^\d+(\.\d+)?$/.test(amount)) {
    return T.amountFormat;
  }
  const digits = currency(from)?.blockchainPrecision ?? 18;
  if ((amount.split('.')[1] || '').length > digits) {
    return fill(T.amountPrecision, { digits, ticker: from.toUpperCase() });
  }
  const fixed = rateMode() === 'fixed';
  const min = fixed ? pair.minAmountFixed : pair.minAmountFloat;
  const max = fixed ? pair.maxAmountFixed : pair.maxAmountFloat;
  if (compareDecimals(amount, min) < 0 || compareDecimals(amount, max) > 0) {
    return fill(T.limits, { min, max, ticker: from.toUpperCase() });
  }
  return null;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : T.genericError;
}

function quote(): void {
  const seq = ++state.quoteSeq;
  state.quote = null;
  clearInterval(state.countdown);
  continueButton.disabled = true;
  $('amount-error').textContent = '';
  const amount = amountInput.value.trim();
  const from = fromSelect.value;
  const to = toSelect.value;
  if (!amount) {
    $('quote').textContent = '';
    return;
  }
  if (from === to) {
    $('quote').textContent = '';
    $('amount-error').textContent = T.samePair;
    return;
  }
  $('quote').textContent = T.quoting;
  pairLimits(from, to)
    .then((pair) => {
      if (seq !== state.quoteSeq) {
        return null;
      }
      const problem = amountProblem(amount, from, pair);
      if (problem) {
        throw new Error(problem);
      }
      const body: Record<string, string> = { from, to, amountFrom: amount };
      if (rateMode() === 'fixed') {
        body.mode = 'fixed';
      }
      return api<{ quote: Quote }>('POST', '/quotes', body);
    })
    .then((json) => {
      if (!json || seq !== state.quoteSeq) {
        return;
      }
      state.quote = json.quote;
      continueButton.disabled = false;
      describeQuote();
      if (json.quote.mode === 'fixed') {
        state.countdown = window.setInterval(describeQuote, 1000);
      }
      resized();
    })
    .catch((error: unknown) => {
      if (seq !== state.quoteSeq) {
        return;
      }
      $('quote').textContent = '';
      $('amount-error').textContent = messageOf(error);
      resized();
    });
}

function secondsLeft(q: Quote): number {
  return Math.max(0, Math.floor((Date.parse(q.expiresAt) - Date.now()) / 1000));
}

function describeQuote(): void {
  const q = state.quote;
  if (!q) {
    return;
  }
  const values: Values = { amount: q.amountUserReceives, ticker: q.to.toUpperCase() };
  if (q.mode === 'fixed') {
    const left = secondsLeft(q);
    if (left <= 0) {
      clearInterval(state.countdown);
      $('quote').textContent = T.rateExpired;
      quote();
      return;
    }
    values.time = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`;
    $('quote').textContent = fill(T.fixedQuote, values);
  } else {
    $('quote').textContent = fill(T.estimate, values);
  }
}

const checks: Record<string, number | undefined> = {};
function checkAddress(input: HTMLInputElement, ticker: () => string, output: HTMLElement): void {
  clearTimeout(checks[input.id]);
  output.textContent = '';
  output.className = 'hint';
  const address = input.value.trim();
  if (!address) {
    input.removeAttribute('aria-invalid');
    return;
  }
  checks[input.id] = window.setTimeout(() => {
    output.textContent = T.checking;
    api<{ valid: boolean; message?: string }>('POST', '/addresses/validate', {
      currency: ticker(),
      address,
    })
      .then((json) => {
        if (input.value.trim() !== address) {
          return;
        }
        output.textContent = json.valid
          ? T.addressValid
          : json.message || fill(T.addressInvalid, { ticker: ticker().toUpperCase() });
        output.className = json.valid ? 'hint ok' : 'error';
        input.setAttribute('aria-invalid', json.valid ? 'false' : 'true');
        resized();
      })
      .catch((error: unknown) => {
        output.textContent = messageOf(error);
        output.className = 'error';
      });
  }, 400);
}

function testAddress(ticker: string): Promise<string> {
  return api<{ addresses: string[] }>(
    'GET',
    `/test_helpers/addresses?currency=${encodeURIComponent(ticker)}`,
  ).then((json) => json.addresses[0]);
}

/** Test keys only: valid addresses of the pair's currencies, refund too where a fixed rate needs one. */
function useTestAddresses(): void {
  const q = state.quote;
  if (!q || !testAddressButton) {
    return;
  }
  const targets = [{ input: addressInput, ticker: q.to, output: $('address-check') }];
  if (q.mode === 'fixed') {
    targets.push({ input: refundInput, ticker: q.from, output: $('refund-check') });
  }
  testAddressButton.disabled = true;
  $('create-error').textContent = '';
  void Promise.all(
    targets.map((target) =>
      testAddress(target.ticker)
        .then((address) => {
          target.input.value = address;
          checkAddress(target.input, () => target.ticker, target.output);
        })
        .catch(() => {
          $('create-error').textContent = fill(T.testAddressFailed, {
            ticker: target.ticker.toUpperCase(),
          });
        }),
    ),
  ).then(() => {
    testAddressButton.disabled = false;
    resized();
  });
}

function toAddresses(): void {
  const q = state.quote;
  if (!q) {
    return;
  }
  $('payout-hint').textContent = fill(T.payoutHint, { ticker: q.to.toUpperCase() });
  $('refund-hint').textContent = fill(q.mode === 'fixed' ? T.refundHintFixed : T.refundHintFloat, {
    ticker: q.from.toUpperCase(),
  });
  refundInput.required = q.mode === 'fixed';
  $('create-error').textContent = '';
  state.idempotencyKey = null;
  show('addresses');
}

function createSwap(): void {
  const q = state.quote;
  if (!q) {
    return;
  }
  const body: Record<string, string | undefined> = {
    from: q.from,
    to: q.to,
    amountFrom: q.amountFrom,
    address: addressInput.value.trim(),
  };
  const refund = refundInput.value.trim();
  if (refund) {
    body.refundAddress = refund;
  }
  if (q.mode === 'fixed') {
    body.mode = 'fixed';
    body.rateId = q.rateId;
  }
  // One key per attempt at these details: a retry after a lost answer cannot create twice.
  const fingerprint = JSON.stringify(body);
  if (!state.idempotencyKey || state.idempotencyKey.body !== fingerprint) {
    state.idempotencyKey = { body: fingerprint, key: uuid() };
  }
  createButton.disabled = true;
  $('create-error').textContent = T.creating;
  api<{ swap: Swap; statusToken: string }>('POST', '/swaps', body, {
    'Idempotency-Key': state.idempotencyKey.key,
  })
    .then((json) => {
      state.swap = json.swap;
      state.token = json.statusToken;
      post('swap.created', { swap: json.swap });
      showDeposit();
    })
    .catch((error: unknown) => {
      $('create-error').textContent = messageOf(error);
      if (error instanceof ApiError && error.code === 'rate_expired') {
        state.idempotencyKey = null;
      }
      resized();
    })
    .finally(() => {
      createButton.disabled = false;
    });
}

function showDeposit(): void {
  state.screen = null;
  state.hashPolls = 0;
  render();
  schedulePoll();
}

/** Open while the swap waits and, for a fixed rate, its deadline (payTill) has not passed. */
function depositOpen(swap: Swap): boolean {
  return swap.status === 'waiting' && !(swap.payTill && Date.parse(swap.payTill) <= Date.now());
}

/** Which screen a swap's state gets: the deposit step, or one of T.screens. */
function screenOf(swap: Swap): Screen | 'deposit' {
  if (swap.status === 'waiting') {
    return depositOpen(swap) ? 'deposit' : 'windowClosed';
  }
  if (PROGRESS.includes(swap.status)) {
    return 'received';
  }
  return swap.status as Screen;
}

function render(): void {
  const screen = screenOf(currentSwap());
  if (screen === 'deposit') {
    renderDeposit();
  } else {
    renderOutcome(screen);
  }
  if (screen !== state.screen) {
    state.screen = screen;
    show(screen === 'deposit' ? 'deposit' : 'outcome');
  }
  resized();
}

function statusText(status: string): string {
  return (T.statuses as Record<string, string | undefined>)[status] || status;
}

function renderDeposit(): void {
  const swap = currentSwap();
  setText(d('deposit-amount'), `${swap.amountExpectedFrom} ${swap.from.toUpperCase()}`);
  setText(d('payin'), swap.payinAddress);
  setText(d('swap-id'), swap.id);
  setText(
    d('pay-till'),
    swap.payTill ? fill(T.payTill, { time: new Date(swap.payTill).toLocaleString() }) : '',
  );
  d('pay-till').hidden = !swap.payTill;
  setText(d('status'), statusText(swap.status));
  d('simulate').hidden = config.mode !== 'test';
  if (state.qrFor !== swap.id) {
    loadQr(swap.id);
  }
  clearTimeout(state.windowTimer);
  if (swap.payTill) {
    // The window closes on the clock, whether or not a poll says so.
    state.windowTimer = window.setTimeout(
      render,
      Math.max(0, Date.parse(swap.payTill) - Date.now()) + 250,
    );
  }
}

function renderOutcome(screen: Screen): void {
  const swap = currentSwap();
  const words = T.screens[screen];
  setText($('heading-outcome'), words.title);
  setText(
    $('outcome-text'),
    fill(words.text, {
      amount: swap.amountActualTo || swap.amountExpectedTo,
      ticker: swap.to.toUpperCase(),
    }),
  );
  $('outcome-status').hidden = screen !== 'received';
  setText($('outcome-status-text'), screen === 'received' ? statusText(swap.status) : '');
  const hash =
    screen === 'finished' ? swap.payoutHash : screen === 'refunded' ? swap.refundHash : null;
  $('outcome-hash').hidden = !hash;
  setText(
    $('outcome-hash-label'),
    hash ? (screen === 'finished' ? T.payoutHash : T.refundHash) : '',
  );
  setText($('outcome-hash-value'), hash || '');
  setText($('outcome-swap-id'), swap.id);
  $('restart').hidden = !TERMINAL.includes(swap.status);
}

function loadQr(id: string): void {
  state.qrFor = id;
  fetch(`${API}/swaps/${encodeURIComponent(id)}/qr.svg`, {
    headers: { 'X-Widget-Key': config.key, 'X-Swap-Token': state.token ?? '' },
    credentials: 'same-origin',
  })
    .then((res) => (res.ok ? res.blob() : null))
    .then((blob) => {
      if (blob && state.qrFor === id) {
        const qr = d<HTMLImageElement>('qr');
        qr.src = URL.createObjectURL(blob);
        qr.hidden = false;
        resized();
      }
    })
    .catch(() => {
      d('qr').hidden = true;
    });
}

function update(swap: Swap): void {
  const previous = currentSwap().status;
  state.swap = swap;
  if (swap.status !== previous) {
    post('swap.status_changed', { swap, previousStatus: previous });
  }
  render();
}

/**
 * When to read the swap again, or null: never once it is terminal, except that a payout's or a
 * refund's hash may be reported a little after the status, so those are awaited for a while.
 */
function pollDelay(swap: Swap): number | null {
  if (!TERMINAL.includes(swap.status)) {
    return swap.status === 'hold' ? HOLD_POLL_MS : POLL_MS;
  }
  const hashDue =
    (swap.status === 'finished' && !swap.payoutHash) ||
    (swap.status === 'refunded' && swap.refundHash === null);
  return hashDue && state.hashPolls++ < HASH_POLLS ? HASH_POLL_MS : null;
}

function swapHeaders(): Record<string, string> {
  return { 'X-Swap-Token': state.token ?? '' };
}

function schedulePoll(): void {
  clearTimeout(state.pollTimer);
  const delay = pollDelay(currentSwap());
  if (delay === null) {
    return;
  }
  state.pollTimer = window.setTimeout(() => {
    api<{ swap: Swap }>(
      'GET',
      `/swaps/${encodeURIComponent(currentSwap().id)}`,
      undefined,
      swapHeaders(),
    )
      .then((json) => update(json.swap))
      .catch(() => {
        // The next poll tries again.
      })
      .finally(schedulePoll);
  }, delay);
}

function simulateDeposit(): void {
  const simulate = d<HTMLButtonElement>('simulate');
  simulate.disabled = true;
  api<{ swap: Swap }>(
    'POST',
    `/test_helpers/swaps/${encodeURIComponent(currentSwap().id)}/deposit`,
    {},
    swapHeaders(),
  )
    .then((json) => {
      update(json.swap);
      schedulePoll();
    })
    .catch((error: unknown) => {
      if (sections.deposit.isConnected) {
        d('status-detail').textContent = messageOf(error);
      }
    })
    .finally(() => {
      simulate.disabled = false;
    });
}

function restart(): void {
  clearTimeout(state.pollTimer);
  clearTimeout(state.windowTimer);
  state.swap = null;
  state.token = null;
  state.screen = null;
  addressInput.value = '';
  refundInput.value = '';
  $('address-check').textContent = '';
  $('refund-check').textContent = '';
  show('amount');
  requestQuote();
}

fromSelect.addEventListener('change', requestQuote);
toSelect.addEventListener('change', requestQuote);
amountInput.addEventListener('input', requestQuote);
$('mode-float').addEventListener('change', requestQuote);
$('mode-fixed').addEventListener('change', requestQuote);
continueButton.addEventListener('click', toAddresses);
$('back').addEventListener('click', () => show('amount'));
addressInput.addEventListener('input', () =>
  checkAddress(addressInput, () => state.quote?.to ?? '', $('address-check')),
);
refundInput.addEventListener('input', () =>
  checkAddress(refundInput, () => state.quote?.from ?? '', $('refund-check')),
);
createButton.addEventListener('click', createSwap);
testAddressButton?.addEventListener('click', useTestAddresses);
d('copy').addEventListener('click', () => {
  navigator.clipboard.writeText(currentSwap().payinAddress).then(
    () => {
      d('status-detail').textContent = T.copied;
    },
    () => undefined,
  );
});
d('simulate').addEventListener('click', simulateDeposit);
sections.deposit.remove();
$('restart').addEventListener('click', restart);
if ('ResizeObserver' in window) {
  new ResizeObserver(resized).observe(document.body);
}
void loadCurrencies();
