/**
 * The hosted widget's own script, served as a file with a hashed name (no inline script, no
 * framework, no third-party request). It reads its configuration from the page's JSON data
 * block, talks to `/widget-api/v1` on this origin with the page's widget key, and tells the
 * embedding page (only the origin the loader named, which the server checked against the key's
 * list) about `swap.created`, `swap.status_changed` and its height.
 */
export const WIDGET_PAGE_SCRIPT = String.raw`(function () {
  'use strict';
  var config = JSON.parse(document.getElementById('widget-config').textContent);
  var T = config.text;
  var API = '/widget-api/v1';
  var TERMINAL = ['finished', 'failed', 'refunded', 'overdue', 'expired'];
  var PROGRESS = ['confirming', 'exchanging', 'sending'];
  var POLL_MS = 3000;
  var HOLD_POLL_MS = 15000;
  var HASH_POLL_MS = 10000;
  var HASH_POLLS = 30;
  var $ = function (id) { return document.getElementById(id); };
  var sections = { amount: $('step-amount'), addresses: $('step-addresses'), deposit: $('step-deposit'), outcome: $('step-outcome') };
  /** The deposit step's own elements: found while the step is out of the document too. */
  var d = function (id) { return sections.deposit.querySelector('#' + id); };
  var state = { currencies: [], quote: null, quoteSeq: 0, swap: null, token: null, idempotencyKey: null, pollTimer: null, countdown: null, screen: null, windowTimer: null, qrFor: null, hashPolls: 0 };

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (_, name) { return values[name] === undefined ? '' : String(values[name]); });
  }

  function post(type, data) {
    if (config.parentOrigin && window.parent !== window) {
      window.parent.postMessage({ source: 'swap-widget-frame', type: type, data: data }, config.parentOrigin);
    }
  }

  function api(method, path, body, headers) {
    var init = { method: method, headers: { 'X-Widget-Key': config.key }, credentials: 'same-origin' };
    Object.keys(headers || {}).forEach(function (name) { init.headers[name] = headers[name]; });
    if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    return fetch(API + path, init).then(function (res) {
      return res.json().catch(function () { return {}; }).then(function (json) {
        if (!res.ok) {
          var error = new Error((json.error && json.error.message) || T.genericError);
          error.code = json.error && json.error.code;
          throw error;
        }
        return json;
      });
    });
  }

  /**
   * Shows one step. The deposit step is in the document only while the deposit window is open:
   * afterwards no address, amount or QR code to pay is left anywhere on the page.
   */
  function show(step) {
    if (step === 'deposit' && !sections.deposit.isConnected) {
      sections.outcome.parentNode.insertBefore(sections.deposit, sections.outcome);
    }
    if (step !== 'deposit' && sections.deposit.isConnected) { closeDeposit(); }
    Object.keys(sections).forEach(function (name) { sections[name].hidden = name !== step; });
    var heading = sections[step].querySelector('h2');
    if (heading) { heading.focus(); }
    resized();
  }

  function closeDeposit() {
    clearTimeout(state.windowTimer);
    ['deposit-amount', 'payin', 'swap-id', 'pay-till', 'status', 'status-detail'].forEach(function (id) { d(id).textContent = ''; });
    if (d('qr').src) { URL.revokeObjectURL(d('qr').src); }
    d('qr').removeAttribute('src');
    d('qr').hidden = true;
    state.qrFor = null;
    sections.deposit.remove();
  }

  /** Assigns only a change, so a live region is not read out again on every poll. */
  function setText(element, text) {
    if (element.textContent !== text) { element.textContent = text; }
  }

  function resized() {
    post('resize', { height: Math.ceil(document.documentElement.scrollHeight) });
  }

  function tickerOf(select) { return select.value; }
  function uuid() {
    if (window.crypto.randomUUID) { return window.crypto.randomUUID(); }
    var b = window.crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 15) | 64;
    b[8] = (b[8] & 63) | 128;
    var h = Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); }).join('');
    return h.slice(0, 8) + '-' + h.slice(8, 12) + '-' + h.slice(12, 16) + '-' + h.slice(16, 20) + '-' + h.slice(20);
  }

  function rateMode() { return $('mode-fixed').checked ? 'fixed' : 'float'; }

  function option(currency) {
    var o = document.createElement('option');
    o.value = currency.ticker;
    o.textContent = currency.fullName + ' (' + currency.ticker.toUpperCase() + ')';
    return o;
  }

  function loadCurrencies() {
    $('quote').textContent = T.loading;
    return api('GET', '/currencies').then(function (json) {
      state.currencies = json.currencies.filter(function (c) { return c.enabled; });
      state.currencies.filter(function (c) { return c.enabledFrom; }).forEach(function (c) { $('from').appendChild(option(c)); });
      state.currencies.filter(function (c) { return c.enabledTo; }).forEach(function (c) { $('to').appendChild(option(c)); });
      pick($('from'), config.from, 0);
      pick($('to'), config.to, $('to').options.length > 1 && $('to').options[0].value === $('from').value ? 1 : 0);
      if (config.amount) { $('amount').value = config.amount; }
      requestQuote();
    }).catch(function () { $('quote').textContent = T.loadFailed; });
  }

  function pick(select, ticker, fallback) {
    for (var i = 0; i < select.options.length; i++) {
      if (select.options[i].value === ticker) { select.selectedIndex = i; return; }
    }
    select.selectedIndex = Math.min(fallback, select.options.length - 1);
  }

  var quoteTimer = null;
  function requestQuote() {
    clearTimeout(quoteTimer);
    quoteTimer = setTimeout(quote, 350);
  }

  /** Decimal strings compared digit by digit: amounts are never floats. */
  function compareDecimals(a, b) {
    var pa = a.split('.'), pb = b.split('.');
    var ia = pa[0].replace(/^0+(?=\d)/, ''), ib = pb[0].replace(/^0+(?=\d)/, '');
    if (ia.length !== ib.length) { return ia.length < ib.length ? -1 : 1; }
    if (ia !== ib) { return ia < ib ? -1 : 1; }
    var fa = pa[1] || '', fb = pb[1] || '';
    var width = Math.max(fa.length, fb.length);
    fa = fa.padEnd(width, '0');
    fb = fb.padEnd(width, '0');
    return fa === fb ? 0 : fa < fb ? -1 : 1;
  }

  var pairs = {};
  function pairLimits(from, to) {
    var name = from + ':' + to;
    pairs[name] = pairs[name] || api('GET', '/pairs?from=' + encodeURIComponent(from) + '&to=' + encodeURIComponent(to))
      .then(function (json) { return json.pair; })
      .catch(function (error) { delete pairs[name]; throw error; });
    return pairs[name];
  }

  function currency(ticker) {
    return state.currencies.filter(function (c) { return c.ticker === ticker; })[0];
  }

  /** What the amount lacks before a quote can be asked for (so normal flows answer 2xx), or null. */
  function amountProblem(amount, from, pair) {
    if (!/^\d+(\.\d+)?$/.test(amount)) { return T.amountFormat; }
    var digits = currency(from) ? currency(from).blockchainPrecision : 18;
    if ((amount.split('.')[1] || '').length > digits) {
      return fill(T.amountPrecision, { digits: digits, ticker: from.toUpperCase() });
    }
    var fixed = rateMode() === 'fixed';
    var min = fixed ? pair.minAmountFixed : pair.minAmountFloat;
    var max = fixed ? pair.maxAmountFixed : pair.maxAmountFloat;
    if (compareDecimals(amount, min) < 0 || compareDecimals(amount, max) > 0) {
      return fill(T.limits, { min: min, max: max, ticker: from.toUpperCase() });
    }
    return null;
  }

  function quote() {
    var seq = ++state.quoteSeq;
    state.quote = null;
    clearInterval(state.countdown);
    $('continue').disabled = true;
    $('amount-error').textContent = '';
    var amount = $('amount').value.trim();
    var from = tickerOf($('from')), to = tickerOf($('to'));
    if (!amount) { $('quote').textContent = ''; return; }
    if (from === to) { $('quote').textContent = ''; $('amount-error').textContent = T.samePair; return; }
    $('quote').textContent = T.quoting;
    pairLimits(from, to).then(function (pair) {
      if (seq !== state.quoteSeq) { return null; }
      var problem = amountProblem(amount, from, pair);
      if (problem) {
        var error = new Error(problem);
        throw error;
      }
      var body = { from: from, to: to, amountFrom: amount };
      if (rateMode() === 'fixed') { body.mode = 'fixed'; }
      return api('POST', '/quotes', body);
    }).then(function (json) {
      if (!json || seq !== state.quoteSeq) { return; }
      state.quote = json.quote;
      $('continue').disabled = false;
      describeQuote();
      if (json.quote.mode === 'fixed') { state.countdown = setInterval(describeQuote, 1000); }
      resized();
    }).catch(function (error) {
      if (seq !== state.quoteSeq) { return; }
      $('quote').textContent = '';
      $('amount-error').textContent = error.message;
      resized();
    });
  }

  function secondsLeft(q) { return Math.max(0, Math.floor((Date.parse(q.expiresAt) - Date.now()) / 1000)); }

  function describeQuote() {
    var q = state.quote;
    if (!q) { return; }
    var values = { amount: q.amountUserReceives, ticker: q.to.toUpperCase() };
    if (q.mode === 'fixed') {
      var left = secondsLeft(q);
      if (left <= 0) {
        clearInterval(state.countdown);
        $('quote').textContent = T.rateExpired;
        quote();
        return;
      }
      values.time = Math.floor(left / 60) + ':' + String(left % 60).padStart(2, '0');
      $('quote').textContent = fill(T.fixedQuote, values);
    } else {
      $('quote').textContent = fill(T.estimate, values);
    }
  }

  var checks = {};
  function checkAddress(input, currency, output) {
    clearTimeout(checks[input.id]);
    output.textContent = '';
    output.className = 'hint';
    var address = input.value.trim();
    if (!address) { input.removeAttribute('aria-invalid'); return; }
    checks[input.id] = setTimeout(function () {
      output.textContent = T.checking;
      api('POST', '/addresses/validate', { currency: currency(), address: address }).then(function (json) {
        if (input.value.trim() !== address) { return; }
        output.textContent = json.valid ? T.addressValid : (json.message || fill(T.addressInvalid, { ticker: currency().toUpperCase() }));
        output.className = json.valid ? 'hint ok' : 'error';
        input.setAttribute('aria-invalid', json.valid ? 'false' : 'true');
        resized();
      }).catch(function (error) { output.textContent = error.message; output.className = 'error'; });
    }, 400);
  }

  function testAddress(ticker) {
    return api('GET', '/test_helpers/addresses?currency=' + encodeURIComponent(ticker)).then(function (json) { return json.addresses[0]; });
  }

  /** Test keys only: valid addresses of the pair's currencies, refund too where a fixed rate needs one. */
  function useTestAddresses() {
    var q = state.quote;
    if (!q) { return; }
    var targets = [{ input: $('address'), ticker: q.to, output: $('address-check') }];
    if (q.mode === 'fixed') { targets.push({ input: $('refund'), ticker: q.from, output: $('refund-check') }); }
    $('test-address').disabled = true;
    $('create-error').textContent = '';
    Promise.all(targets.map(function (target) {
      return testAddress(target.ticker).then(function (address) {
        target.input.value = address;
        checkAddress(target.input, function () { return target.ticker; }, target.output);
      }).catch(function () {
        $('create-error').textContent = fill(T.testAddressFailed, { ticker: target.ticker.toUpperCase() });
      });
    })).then(function () { $('test-address').disabled = false; resized(); });
  }

  function toAddresses() {
    if (!state.quote) { return; }
    var q = state.quote;
    $('payout-hint').textContent = fill(T.payoutHint, { ticker: q.to.toUpperCase() });
    $('refund-hint').textContent = fill(q.mode === 'fixed' ? T.refundHintFixed : T.refundHintFloat, { ticker: q.from.toUpperCase() });
    $('refund').required = q.mode === 'fixed';
    $('create-error').textContent = '';
    state.idempotencyKey = null;
    show('addresses');
  }

  function createSwap() {
    var q = state.quote;
    if (!q) { return; }
    var body = { from: q.from, to: q.to, amountFrom: q.amountFrom, address: $('address').value.trim() };
    var refund = $('refund').value.trim();
    if (refund) { body.refundAddress = refund; }
    if (q.mode === 'fixed') { body.mode = 'fixed'; body.rateId = q.rateId; }
    // One key per attempt at these details: a retry after a lost answer cannot create twice.
    var fingerprint = JSON.stringify(body);
    if (!state.idempotencyKey || state.idempotencyKey.body !== fingerprint) {
      state.idempotencyKey = { body: fingerprint, key: uuid() };
    }
    $('create').disabled = true;
    $('create-error').textContent = T.creating;
    api('POST', '/swaps', body, { 'Idempotency-Key': state.idempotencyKey.key }).then(function (json) {
      state.swap = json.swap;
      state.token = json.statusToken;
      post('swap.created', { swap: json.swap });
      showDeposit();
    }).catch(function (error) {
      $('create-error').textContent = error.message;
      if (error.code === 'rate_expired') { state.idempotencyKey = null; }
      resized();
    }).then(function () { $('create').disabled = false; });
  }

  function showDeposit() {
    state.screen = null;
    state.hashPolls = 0;
    render();
    schedulePoll();
  }

  /** Open while the swap waits and, for a fixed rate, its deadline (payTill) has not passed. */
  function depositOpen(swap) {
    return swap.status === 'waiting' && !(swap.payTill && Date.parse(swap.payTill) <= Date.now());
  }

  /** Which screen a swap's state gets: the deposit step, or one of T.screens. */
  function screenOf(swap) {
    if (swap.status === 'waiting') { return depositOpen(swap) ? 'deposit' : 'windowClosed'; }
    if (PROGRESS.indexOf(swap.status) !== -1) { return 'received'; }
    return swap.status;
  }

  function render() {
    var screen = screenOf(state.swap);
    if (screen === 'deposit') { renderDeposit(); } else { renderOutcome(screen); }
    if (screen !== state.screen) {
      state.screen = screen;
      show(screen === 'deposit' ? 'deposit' : 'outcome');
    }
    resized();
  }

  function renderDeposit() {
    var swap = state.swap;
    setText(d('deposit-amount'), swap.amountExpectedFrom + ' ' + swap.from.toUpperCase());
    setText(d('payin'), swap.payinAddress);
    setText(d('swap-id'), swap.id);
    setText(d('pay-till'), swap.payTill ? fill(T.payTill, { time: new Date(swap.payTill).toLocaleString() }) : '');
    d('pay-till').hidden = !swap.payTill;
    setText(d('status'), T.statuses[swap.status] || swap.status);
    d('simulate').hidden = config.mode !== 'test';
    if (state.qrFor !== swap.id) { loadQr(swap.id); }
    clearTimeout(state.windowTimer);
    if (swap.payTill) {
      // The window closes on the clock, whether or not a poll says so.
      state.windowTimer = setTimeout(render, Math.max(0, Date.parse(swap.payTill) - Date.now()) + 250);
    }
  }

  function renderOutcome(screen) {
    var swap = state.swap;
    var words = T.screens[screen];
    setText($('heading-outcome'), words.title);
    setText($('outcome-text'), fill(words.text, { amount: swap.amountActualTo || swap.amountExpectedTo, ticker: swap.to.toUpperCase() }));
    $('outcome-status').hidden = screen !== 'received';
    setText($('outcome-status-text'), screen === 'received' ? T.statuses[swap.status] || swap.status : '');
    var hash = screen === 'finished' ? swap.payoutHash : screen === 'refunded' ? swap.refundHash : null;
    $('outcome-hash').hidden = !hash;
    setText($('outcome-hash-label'), hash ? (screen === 'finished' ? T.payoutHash : T.refundHash) : '');
    setText($('outcome-hash-value'), hash || '');
    setText($('outcome-swap-id'), swap.id);
    $('restart').hidden = TERMINAL.indexOf(swap.status) === -1;
  }

  function loadQr(id) {
    state.qrFor = id;
    fetch(API + '/swaps/' + encodeURIComponent(id) + '/qr.svg', {
      headers: { 'X-Widget-Key': config.key, 'X-Swap-Token': state.token },
      credentials: 'same-origin',
    }).then(function (res) { return res.ok ? res.blob() : null; }).then(function (blob) {
      if (blob && state.qrFor === id) { d('qr').src = URL.createObjectURL(blob); d('qr').hidden = false; resized(); }
    }).catch(function () { d('qr').hidden = true; });
  }

  function update(swap) {
    var previous = state.swap.status;
    state.swap = swap;
    if (swap.status !== previous) {
      post('swap.status_changed', { swap: swap, previousStatus: previous });
    }
    render();
  }

  /**
   * When to read the swap again, or null: never once it is terminal, except that a payout's or a
   * refund's hash may be reported a little after the status, so those are awaited for a while.
   */
  function pollDelay(swap) {
    if (TERMINAL.indexOf(swap.status) === -1) { return swap.status === 'hold' ? HOLD_POLL_MS : POLL_MS; }
    var hashDue = (swap.status === 'finished' && !swap.payoutHash) || (swap.status === 'refunded' && swap.refundHash === null);
    return hashDue && state.hashPolls++ < HASH_POLLS ? HASH_POLL_MS : null;
  }

  function schedulePoll() {
    clearTimeout(state.pollTimer);
    var delay = pollDelay(state.swap);
    if (delay === null) { return; }
    state.pollTimer = setTimeout(function () {
      api('GET', '/swaps/' + encodeURIComponent(state.swap.id), undefined, { 'X-Swap-Token': state.token })
        .then(function (json) { update(json.swap); })
        .catch(function () { /* the next poll tries again */ })
        .then(schedulePoll);
    }, delay);
  }

  function simulateDeposit() {
    d('simulate').disabled = true;
    api('POST', '/test_helpers/swaps/' + encodeURIComponent(state.swap.id) + '/deposit', {}, { 'X-Swap-Token': state.token })
      .then(function (json) { update(json.swap); schedulePoll(); })
      .catch(function (error) { if (sections.deposit.isConnected) { d('status-detail').textContent = error.message; } })
      .then(function () { d('simulate').disabled = false; });
  }

  function restart() {
    clearTimeout(state.pollTimer);
    clearTimeout(state.windowTimer);
    state.swap = null;
    state.token = null;
    state.screen = null;
    $('address').value = '';
    $('refund').value = '';
    $('address-check').textContent = '';
    $('refund-check').textContent = '';
    show('amount');
    requestQuote();
  }

  $('from').addEventListener('change', requestQuote);
  $('to').addEventListener('change', requestQuote);
  $('amount').addEventListener('input', requestQuote);
  $('mode-float').addEventListener('change', requestQuote);
  $('mode-fixed').addEventListener('change', requestQuote);
  $('continue').addEventListener('click', toAddresses);
  $('back').addEventListener('click', function () { show('amount'); });
  $('address').addEventListener('input', function () { checkAddress($('address'), function () { return state.quote.to; }, $('address-check')); });
  $('refund').addEventListener('input', function () { checkAddress($('refund'), function () { return state.quote.from; }, $('refund-check')); });
  $('create').addEventListener('click', createSwap);
  if ($('test-address')) { $('test-address').addEventListener('click', useTestAddresses); }
  d('copy').addEventListener('click', function () {
    navigator.clipboard.writeText(state.swap.payinAddress).then(function () { d('status-detail').textContent = T.copied; }, function () {});
  });
  d('simulate').addEventListener('click', simulateDeposit);
  sections.deposit.remove();
  $('restart').addEventListener('click', restart);
  if (window.ResizeObserver) { new ResizeObserver(resized).observe(document.body); }
  loadCurrencies();
})();
`;
