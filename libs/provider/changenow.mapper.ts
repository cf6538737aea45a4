import { Decimal } from 'decimal.js';
import type { SwapStatus } from '#app/domain';
import { changeNowFacts, type ChangeNowCurrencyFacts } from './changenow-currencies.js';
import {
  CHANGENOW_FLOWS,
  CHANGENOW_STATUSES,
  type ChangeNowFlow,
  type ChangeNowStatus,
} from './changenow.wire.js';
import type {
  AddressValidation,
  ProviderCurrency,
  ProviderFixedQuote,
  ProviderFloatQuote,
  ProviderTransaction,
  QuoteRequest,
} from './liquidity-provider.js';
import { emptyQuote } from './provider.error.js';
import { WireReader } from './wire.reader.js';

/*
 * ChangeNOW's answers (docs/decisions.md, "The ChangeNOW wire protocol") to the port's types. The
 * answers were parsed with every number as its exact decimal text; a missing or mistyped field, an
 * unknown currency or status throws, which the client turns into a bad response.
 */

/** One flow's bounds; a null maximum means none. */
export interface ChangeNowRange {
  min: string;
  max: string | null;
}

/** The catalogue as the service can use it, and what it had to leave out. */
export interface ChangeNowCatalogue {
  currencies: ProviderCurrency[];
  /** `ticker/network` of every currency the service does not know. */
  unknown: string[];
}

/**
 * ChangeNOW's words as swap statuses: `new` is `waiting`, `verifying` is `hold`, and `expired` is
 * `overdue` for a float (standard) exchange, which expires when no deposit came in its window.
 */
export function toSwapStatus(status: ChangeNowStatus, flow: ChangeNowFlow): SwapStatus {
  switch (status) {
    case 'new':
      return 'waiting';
    case 'verifying':
      return 'hold';
    case 'expired':
      return flow === 'standard' ? 'overdue' : 'expired';
    case 'waiting':
    case 'confirming':
    case 'exchanging':
    case 'sending':
    case 'finished':
    case 'failed':
    case 'refunded':
      return status;
  }
}

function oneOf<T extends string>(r: WireReader, key: string, allowed: readonly T[]): T {
  const value = r.string(key);
  if (!(allowed as readonly string[]).includes(value)) {
    throw new TypeError(`unknown ${key} ${value}`);
  }
  return value as T;
}

function currencyOf(r: WireReader, side: 'from' | 'to'): ChangeNowCurrencyFacts {
  const ticker = r.string(`${side}Currency`);
  const network = r.string(`${side}Network`);
  const facts = changeNowFacts(ticker, network);
  if (!facts) {
    throw new TypeError(`unknown currency ${ticker} on ${network}`);
  }
  return facts;
}

/**
 * A by-id answer may not name the flow; a fixed-rate exchange is the one with a deposit deadline.
 */
function flowOf(r: WireReader): ChangeNowFlow {
  if (r.optionalString('flow') !== null) {
    return oneOf(r, 'flow', CHANGENOW_FLOWS);
  }
  return r.optionalTimestamp('validUntil') === null ? 'standard' : 'fixed-rate';
}

/** Our note, from the payload we sent; null when the exchange carries none. */
function userMetadataOf(r: WireReader): string | null {
  const payload = r.optionalObject('payload');
  return payload === null ? null : payload.optionalString('userMetadata');
}

export function readCurrencies(result: unknown): ChangeNowCatalogue {
  const currencies: ProviderCurrency[] = [];
  const unknown: string[] = [];
  WireReader.array(result, 'result').forEach((item, i) => {
    const r = new WireReader(item, `result[${i}]`);
    const ticker = r.string('ticker');
    const network = r.string('network');
    const facts = changeNowFacts(ticker, network);
    if (!facts || r.boolean('isFiat')) {
      unknown.push(`${ticker}/${network}`);
      return;
    }
    const memo = r.boolean('hasExternalId') || r.boolean('isExtraIdSupported');
    currencies.push({
      ticker: facts.ticker,
      fullName: r.string('name'),
      enabled: true,
      enabledFrom: r.boolean('sell'),
      enabledTo: r.boolean('buy'),
      fixRateEnabled: r.boolean('supportsFixedRate'),
      payinConfirmations: facts.payinConfirmations,
      extraIdName: memo ? 'Extra ID' : null,
      image: r.optionalString('image'),
      blockchain: facts.blockchain,
      blockchainPrecision: facts.precision,
    });
  });
  return { currencies, unknown };
}

export function readRange(result: unknown): ChangeNowRange {
  const r = new WireReader(result, 'result');
  return { min: r.decimal('minAmount'), max: r.optionalDecimal('maxAmount') };
}

/**
 * An estimate in the port's terms: `amountTo` is before the network fee, so ChangeNOW's net
 * `toAmount` gets its `withdrawalFee` back, and the rate is what that gross amount makes of
 * `amountFrom` (ChangeNOW builds its fee into the rate and discloses none).
 */
function readEstimate(result: unknown, request: QuoteRequest): { r: WireReader; gross: Gross } {
  const r = new WireReader(result, 'result');
  if (Object.keys(result as object).length === 0) {
    throw emptyQuote('estimated-amount');
  }
  const from = currencyOf(r, 'from');
  const to = currencyOf(r, 'to');
  if (from.ticker !== request.from || to.ticker !== request.to) {
    throw new TypeError(`estimate for ${from.ticker}/${to.ticker}, not the pair asked`);
  }
  const amountFrom = r.decimal('fromAmount');
  const networkFee = r.decimal('withdrawalFee');
  const amountTo = new Decimal(r.decimal('toAmount')).plus(networkFee);
  return {
    r,
    gross: {
      from: from.ticker,
      to: to.ticker,
      amountFrom,
      amountTo: amountTo.toFixed(),
      networkFee,
      rate: amountTo.div(amountFrom).toSignificantDigits(12).toFixed(),
    },
  };
}

type Gross = Pick<
  ProviderFloatQuote,
  'from' | 'to' | 'amountFrom' | 'amountTo' | 'networkFee' | 'rate'
>;

/** The bounds a quote reports: its flow's, from the pair's params. */
export interface QuoteBounds {
  min: string;
  max: string;
}

export function readFloatQuote(
  result: unknown,
  request: QuoteRequest,
  bounds: QuoteBounds,
): ProviderFloatQuote {
  const { gross } = readEstimate(result, request);
  return { ...gross, fee: null, ...bounds };
}

export function readFixedQuote(
  result: unknown,
  request: QuoteRequest,
  bounds: QuoteBounds,
): ProviderFixedQuote {
  const { r, gross } = readEstimate(result, request);
  return { ...gross, ...bounds, rateId: r.string('rateId'), expiresAt: r.timestamp('validUntil') };
}

/** What `POST /v2/exchange` answers: nothing has moved yet. */
export function readCreatedTransaction(result: unknown): ProviderTransaction {
  const r = new WireReader(result, 'result');
  const flow = oneOf(r, 'flow', CHANGENOW_FLOWS);
  return {
    id: r.string('id'),
    status: toSwapStatus(oneOf(r, 'status', CHANGENOW_STATUSES), flow),
    from: currencyOf(r, 'from').ticker,
    to: currencyOf(r, 'to').ticker,
    payinAddress: r.string('payinAddress'),
    payoutAddress: r.string('payoutAddress'),
    refundAddress: r.optionalString('refundAddress'),
    userMetadata: userMetadataOf(r),
    amountExpectedFrom: r.decimal('fromAmount'),
    amountExpectedTo: r.decimal('toAmount'),
    networkFee: null,
    rate: null,
    payTill: r.optionalTimestamp('validUntil'),
    createdAt: r.timestamp('createdAt'),
    payinHash: null,
    payoutHash: null,
    refundHash: null,
    amountActualFrom: null,
    amountActualTo: null,
    actualNetworkFee: null,
    moneyReceivedAt: null,
    moneySentAt: null,
  };
}

/**
 * One exchange as by-id and the listing report it. ChangeNOW reports no send time: once a payout
 * hash shows, the exchange's `updatedAt` (the step that brought it) stands for it.
 */
export function readExchange(item: unknown, what = 'result'): ProviderTransaction {
  const r = new WireReader(item, what);
  const flow = flowOf(r);
  const moneyReceivedAt = r.optionalTimestamp('depositReceivedAt');
  const payoutHash = r.optionalString('payoutHash');
  return {
    id: r.string('id'),
    status: toSwapStatus(oneOf(r, 'status', CHANGENOW_STATUSES), flow),
    from: currencyOf(r, 'from').ticker,
    to: currencyOf(r, 'to').ticker,
    payinAddress: r.string('payinAddress'),
    payoutAddress: r.string('payoutAddress'),
    refundAddress: r.optionalString('refundAddress'),
    userMetadata: userMetadataOf(r),
    amountExpectedFrom: r.decimal('expectedAmountFrom'),
    amountExpectedTo: r.decimal('expectedAmountTo'),
    networkFee: null,
    rate: null,
    payTill: flow === 'fixed-rate' ? r.optionalTimestamp('validUntil') : null,
    createdAt: r.timestamp('createdAt'),
    payinHash: r.optionalString('payinHash'),
    payoutHash,
    refundHash: r.optionalString('refundHash'),
    amountActualFrom: moneyReceivedAt === null ? null : r.optionalDecimal('amountFrom'),
    amountActualTo: payoutHash === null ? null : r.optionalDecimal('amountTo'),
    actualNetworkFee: null,
    moneyReceivedAt,
    moneySentAt: payoutHash === null ? null : r.timestamp('updatedAt'),
  };
}

/** One page of `GET /v2/exchanges`, newest first. */
export function readExchanges(result: unknown): ProviderTransaction[] {
  const r = new WireReader(result, 'result');
  return WireReader.array(r.field('exchanges'), 'result.exchanges').map((item, i) =>
    readExchange(item, `result.exchanges[${i}]`),
  );
}

export function readAddressValidation(result: unknown): AddressValidation {
  const r = new WireReader(result, 'result');
  const message = r.optionalString('message');
  return message === null
    ? { result: r.boolean('result') }
    : { result: r.boolean('result'), message };
}
