import { Decimal } from 'decimal.js';
import { isProviderStatus, toSwapStatus, type SwapStatus } from '#app/domain';
import type { RpcMethod } from './changelly.wire.js';
import type {
  AddressValidation,
  ProviderCurrency,
  ProviderFixedQuote,
  ProviderFloatQuote,
  ProviderPairParams,
  ProviderTransaction,
} from './liquidity-provider.js';
import { emptyQuote } from './provider.error.js';
import { WireReader } from './wire.reader.js';

/*
 * Wire results (docs/decisions.md, "The provider's wire protocol") to the port's types. Every
 * reader takes the untrusted `result` of a call; a missing or mistyped field throws, which the
 * client turns into a bad response.
 */

/** The provider's status word as a swap status, normalized at the boundary (`new` is `waiting`). */
function toStatus(value: string): SwapStatus {
  if (!isProviderStatus(value)) {
    throw new TypeError(`unknown status ${value}`);
  }
  return toSwapStatus(value);
}

/** Upstream reports "0" for an amount that has not moved yet. */
function nonZero(value: string | null): string | null {
  return value === null || new Decimal(value).isZero() ? null : value;
}

/**
 * A quote method answers an array; an empty one means no quote (docs/decisions.md, "The provider's
 * wire protocol").
 */
function firstQuote(method: RpcMethod, result: unknown): WireReader {
  const first = WireReader.array(result, 'result')[0];
  if (first === undefined) {
    throw emptyQuote(method);
  }
  return new WireReader(first, 'result[0]');
}

export function readCurrencies(result: unknown): ProviderCurrency[] {
  return WireReader.array(result, 'result').map((item, i) => {
    const r = new WireReader(item, `result[${i}]`);
    return {
      ticker: r.string('ticker'),
      fullName: r.string('fullName'),
      enabled: r.boolean('enabled'),
      enabledFrom: r.boolean('enabledFrom'),
      enabledTo: r.boolean('enabledTo'),
      fixRateEnabled: r.boolean('fixRateEnabled'),
      payinConfirmations: r.integer('payinConfirmations'),
      extraIdName: r.optionalString('extraIdName'),
      image: r.optionalString('image'),
      blockchain: r.string('blockchain'),
      blockchainPrecision: r.integer('blockchainPrecision'),
    };
  });
}

/** The entry for `from`/`to` among the pairs the provider answered. */
export function readPairParams(result: unknown, from: string, to: string): ProviderPairParams {
  const match = WireReader.array(result, 'result')
    .map((item, i) => new WireReader(item, `result[${i}]`))
    .find((r) => r.string('from') === from && r.string('to') === to);
  if (!match) {
    throw new TypeError(`no params for ${from}/${to}`);
  }
  return {
    from,
    to,
    minAmountFloat: match.decimal('minAmountFloat'),
    maxAmountFloat: match.decimal('maxAmountFloat'),
    minAmountFixed: match.decimal('minAmountFixed'),
    maxAmountFixed: match.decimal('maxAmountFixed'),
  };
}

export function readFloatQuote(result: unknown): ProviderFloatQuote {
  const r = firstQuote('getExchangeAmount', result);
  return {
    from: r.string('from'),
    to: r.string('to'),
    amountFrom: r.decimal('amountFrom'),
    amountTo: r.decimal('amountTo'),
    networkFee: r.decimal('networkFee'),
    rate: r.decimal('rate'),
    fee: r.decimal('fee'),
    min: r.decimal('min'),
    max: r.decimal('max'),
  };
}

export function readFixedQuote(result: unknown): ProviderFixedQuote {
  const r = firstQuote('getFixRateForAmount', result);
  return {
    rateId: r.string('id'),
    from: r.string('from'),
    to: r.string('to'),
    amountFrom: r.decimal('amountFrom'),
    amountTo: r.decimal('amountTo'),
    networkFee: r.decimal('networkFee'),
    rate: r.decimal('result'),
    min: r.decimal('min'),
    max: r.decimal('max'),
    expiresAt: r.timestamp('expiredAt'),
  };
}

/** What `createTransaction`/`createFixTransaction` answer: nothing has moved yet. */
export function readCreatedTransaction(result: unknown): ProviderTransaction {
  const r = new WireReader(result, 'result');
  return {
    id: r.string('id'),
    status: toStatus(r.string('status')),
    from: r.string('currencyFrom'),
    to: r.string('currencyTo'),
    payinAddress: r.string('payinAddress'),
    payoutAddress: r.string('payoutAddress'),
    refundAddress: r.optionalString('refundAddress'),
    userMetadata: r.optionalString('userMetadata'),
    amountExpectedFrom: r.decimal('amountExpectedFrom'),
    amountExpectedTo: r.decimal('amountExpectedTo'),
    networkFee: r.optionalDecimal('networkFee'),
    rate: r.optionalDecimal('rate'),
    payTill: r.optionalTimestamp('payTill'),
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

/** Actual amounts count only once the money they describe has moved. */
export function readTransactions(result: unknown): ProviderTransaction[] {
  return WireReader.array(result, 'result').map((item, i) => {
    const r = new WireReader(item, `result[${i}]`);
    const moneyReceivedAt = r.optionalTimestamp('moneyReceived');
    const moneySentAt = r.optionalTimestamp('moneySent');
    return {
      id: r.string('id'),
      status: toStatus(r.string('status')),
      from: r.string('currencyFrom'),
      to: r.string('currencyTo'),
      payinAddress: r.string('payinAddress'),
      payoutAddress: r.string('payoutAddress'),
      refundAddress: r.optionalString('refundAddress'),
      userMetadata: r.optionalString('userMetadata'),
      amountExpectedFrom: r.decimal('amountExpectedFrom'),
      amountExpectedTo: r.decimal('amountExpectedTo'),
      networkFee: r.optionalDecimal('networkFee'),
      rate: r.optionalDecimal('rate'),
      payTill: r.optionalTimestamp('payTill'),
      createdAt: r.timestamp('createdAt'),
      payinHash: r.optionalString('payinHash'),
      payoutHash: r.optionalString('payoutHash'),
      refundHash: r.optionalString('refundHash'),
      amountActualFrom: moneyReceivedAt === null ? null : nonZero(r.optionalDecimal('amountFrom')),
      amountActualTo: moneySentAt === null ? null : nonZero(r.optionalDecimal('amountTo')),
      actualNetworkFee: moneySentAt === null ? null : r.optionalDecimal('networkFee'),
      moneyReceivedAt,
      moneySentAt,
    };
  });
}

export function readAddressValidation(result: unknown): AddressValidation {
  const r = new WireReader(result, 'result');
  const message = r.optionalString('message');
  return message === null
    ? { result: r.boolean('result') }
    : { result: r.boolean('result'), message };
}
