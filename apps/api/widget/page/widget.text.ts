/**
 * Every word the hosted widget shows, in one place so it can be translated. The page renders the
 * static ones; the script receives the object as JSON and uses the rest.
 */
export const WIDGET_TEXT = {
  title: 'Swap',
  testBanner: 'Test mode: no real funds move.',
  loading: 'Loading currencies\u2026',
  loadFailed: 'The widget could not load. Try again in a moment.',
  stepAmount: 'Choose what to swap',
  youSend: 'You send',
  youGet: 'You get',
  amount: 'Amount',
  rateType: 'Rate',
  floatRate: 'Floating rate',
  fixedRate: 'Fixed rate',
  quoting: 'Getting a quote\u2026',
  estimate: 'You get about {amount} {ticker}',
  fixedQuote: 'You get {amount} {ticker}. Rate fixed for {time}.',
  rateExpired: 'The fixed rate expired; a new one is on its way.',
  limits: 'Send between {min} and {max} {ticker}.',
  amountFormat: 'Enter an amount such as 0.1.',
  amountPrecision: 'Use at most {digits} decimals for {ticker}.',
  samePair: 'Choose two different currencies.',
  continue: 'Continue',
  stepAddresses: 'Where to send',
  payoutAddress: 'Payout address',
  payoutHint: 'Your {ticker} address: the swapped coins go here.',
  refundAddress: 'Refund address',
  refundHintFloat: 'Optional. Your {ticker} address, if the swap has to be refunded.',
  refundHintFixed:
    'Required for a fixed rate. Your {ticker} address, if the swap has to be refunded.',
  checking: 'Checking the address\u2026',
  addressValid: 'Valid address.',
  addressInvalid: 'This is not a valid {ticker} address.',
  useTestAddress: 'Use a test address',
  testAddressFailed: 'No test address for {ticker}: type one instead.',
  back: 'Back',
  createSwap: 'Create swap',
  creating: 'Creating the swap\u2026',
  stepDeposit: 'Send your deposit',
  sendExactly: 'Send exactly',
  toAddress: 'to this address:',
  copy: 'Copy address',
  copied: 'Copied.',
  qrAlt: 'QR code of the deposit address',
  payTill: 'Send before {time}.',
  swapId: 'Swap',
  status: 'Status',
  simulateDeposit: 'Simulate deposit',
  newSwap: 'New swap',
  payoutHash: 'Payout transaction',
  refundHash: 'Refund transaction',
  /**
   * One screen for each state after the deposit window: a title and what happened or happens
   * next. None of them repeats the deposit address or amount, so nobody pays twice.
   */
  screens: {
    received: {
      title: 'Deposit received',
      text: 'Nothing more to send. This page follows the swap to the end.',
    },
    windowClosed: {
      title: 'Deposit window closed',
      text: 'The time to send the deposit has passed: do not send anything now. If you already sent it, this page shows what happens to it.',
    },
    finished: {
      title: 'Finished',
      text: '{amount} {ticker} went to your payout address.',
    },
    failed: {
      title: 'Swap failed',
      text: 'The exchange could not be completed. Contact support with the swap id below to get your deposit back.',
    },
    refunded: {
      title: 'Refunded',
      text: 'Your deposit went back to your refund address.',
    },
    expired: {
      title: 'Expired',
      text: 'The fixed rate ran out before the full deposit arrived. Do not send anything more; if you sent a deposit, contact support with the swap id below to get it back.',
    },
    overdue: {
      title: 'Overdue',
      text: 'No deposit arrived in time, so this swap is closed. Do not send anything to its address; start a new swap instead.',
    },
    hold: {
      title: 'On hold',
      text: 'The exchange is paused for a check. Nothing to do for now: support will contact you if they need anything (keep the swap id below). Once the check is done the swap goes on or your deposit is refunded, and this page shows which.',
    },
  },
  statuses: {
    waiting: 'Waiting for your deposit',
    confirming: 'Confirming your deposit',
    exchanging: 'Exchanging',
    sending: 'Sending to your address',
    finished: 'Finished',
    failed: 'Failed: contact support with the swap id',
    refunded: 'Refunded to your refund address',
    overdue: 'Overdue: no deposit arrived in time',
    expired: 'Expired: the deposit was late or short, so the fixed rate no longer applies',
    hold: 'On hold: the exchange needs a check; support will contact you',
  },
  notFound: 'This widget is not available.',
  genericError: 'Something went wrong. Try again.',
} as const;

export type WidgetText = typeof WIDGET_TEXT;
