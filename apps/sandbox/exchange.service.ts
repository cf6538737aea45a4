import { Inject, Injectable } from '@nestjs/common';
import { Decimal } from 'decimal.js';
import type { ProviderStatus } from '#app/domain';
import { validateAddress } from '#app/chains';
import type {
  WireAddressValidation,
  WireCreatedTransaction,
  WireCurrency,
  WireFixedQuote,
  WireFloatQuote,
  WirePairParams,
  WireTransaction,
} from '#app/provider';
import { listedBy } from './catalogue.js';
import { ParamsReader } from './params.reader.js';
import type { Market } from './market.js';
import { checkQuotedAmount, checkQuotedPair, type RateBook } from './rate.book.js';
import { amountBelowMin, INVALID_PARAMS, RpcFailure } from './rpc-failure.js';
import { SANDBOX_OPTIONS, type ResolvedSandboxOptions } from './sandbox.options.js';
import { SandboxState } from './sandbox.state.js';
import type { TransactionBook } from './transaction.book.js';
import {
  toWireAddressValidation,
  toWireCreatedTransaction,
  toWireCurrency,
  toWireFixedQuote,
  toWireFloatQuote,
  toWirePairParams,
  toWireTransaction,
} from './wire.mapper.js';

/**
 * What a new swap promises: the quote net of the network fee, or null when that leaves nothing.
 */
export function payoutAfterFee(amountTo: Decimal, networkFee: Decimal): Decimal | null {
  const expected = amountTo.minus(networkFee);
  return expected.lte(0) ? null : expected;
}

function expectedPayout(amountTo: Decimal, networkFee: Decimal, min: Decimal): Decimal {
  const expected = payoutAfterFee(amountTo, networkFee);
  if (expected === null) {
    throw amountBelowMin(min);
  }
  return expected;
}

/**
 * The sandbox's Changelly: reads each JSON-RPC call's params, prices it on the shared market,
 * books it and answers in Changelly's wire shapes.
 */
@Injectable()
export class ExchangeService {
  private readonly market: Market;
  private readonly rates: RateBook;
  private readonly transactions: TransactionBook;

  constructor(
    state: SandboxState,
    @Inject(SANDBOX_OPTIONS) private readonly options: ResolvedSandboxOptions,
  ) {
    this.market = state.market;
    this.rates = state.changellyRates;
    this.transactions = state.transactions;
  }

  getCurrenciesFull(): WireCurrency[] {
    return listedBy('changelly').map(toWireCurrency);
  }

  getPairsParams(params: unknown): WirePairParams[] {
    const now = Date.now();
    return ParamsReader.items(params).map((p) => {
      const [from, to] = p.pair('float');
      return toWirePairParams(from, to, this.market.bounds('changelly', from, now));
    });
  }

  getExchangeAmount(params: unknown): WireFloatQuote[] {
    const now = Date.now();
    return ParamsReader.items(params).map((p) => {
      const [from, to] = p.pair('float');
      const bounds = this.market.bounds('changelly', from, now);
      const amountFrom = p.amountFrom(from, { min: bounds.minFloat, max: bounds.maxFloat });
      const price = this.market.floatPrice('changelly', from, to, amountFrom, now);
      return toWireFloatQuote(from, to, amountFrom, price, bounds);
    });
  }

  getFixRateForAmount(params: unknown): WireFixedQuote[] {
    const now = Date.now();
    return ParamsReader.items(params).map((p) => {
      const [from, to] = p.pair('fixed');
      const bounds = this.market.bounds('changelly', from, now);
      const amountFrom = p.amountFrom(from, { min: bounds.minFixed, max: bounds.maxFixed });
      const price = this.market.fixedPrice('changelly', from, to, amountFrom, now);
      return toWireFixedQuote(this.rates.issue(from, to, amountFrom, price, now), bounds);
    });
  }

  createTransaction(params: unknown): WireCreatedTransaction {
    const now = Date.now();
    const p = ParamsReader.object(params);
    const [from, to] = p.pair('float');
    const bounds = this.market.bounds('changelly', from, now);
    const amountFrom = p.amountFrom(from, { min: bounds.minFloat, max: bounds.maxFloat });
    const payoutAddress = p.payoutAddress(to);
    const refundAddress = p.optionalRefundAddress(from);
    const userMetadata = p.userMetadata();
    const price = this.market.floatPrice('changelly', from, to, amountFrom, now);
    const tx = this.transactions.open(
      {
        provider: 'changelly',
        type: 'float',
        from,
        to,
        payoutAddress,
        refundAddress,
        userMetadata,
        payload: null,
        amountExpectedFrom: amountFrom,
        amountExpectedTo: expectedPayout(price.amountTo, price.networkFee, bounds.minFloat),
        networkFee: price.networkFee,
        rate: price.rate,
        payTillMs: null,
      },
      now,
    );
    return toWireCreatedTransaction(tx);
  }

  createFixTransaction(params: unknown): WireCreatedTransaction {
    const now = Date.now();
    const p = ParamsReader.object(params);
    const rate = this.rates.redeemable(p.text('rateId'), now);
    const [from, to] = p.pair('fixed');
    checkQuotedPair(rate, from, to);
    const amountFrom = p.amountFrom(from);
    checkQuotedAmount(rate, amountFrom);
    const payoutAddress = p.payoutAddress(to);
    const refundAddress = p.refundAddress(from);
    const userMetadata = p.userMetadata();
    const amountExpectedTo = expectedPayout(
      rate.amountTo,
      rate.networkFee,
      this.market.bounds('changelly', from, now).minFixed,
    );
    this.rates.redeem(rate);
    const tx = this.transactions.open(
      {
        provider: 'changelly',
        type: 'fixed',
        from,
        to,
        payoutAddress,
        refundAddress,
        userMetadata,
        payload: null,
        amountExpectedFrom: amountFrom,
        amountExpectedTo,
        networkFee: rate.networkFee,
        rate: rate.rate,
        payTillMs: now + this.options.fixedPayWindowMs,
      },
      now,
    );
    return toWireCreatedTransaction(tx);
  }

  getTransactions(params: unknown): WireTransaction[] {
    const query = ParamsReader.object(params).transactionsQuery();
    return this.transactions.list(query, Date.now()).map(toWireTransaction);
  }

  getStatus(params: unknown): ProviderStatus {
    const id = ParamsReader.object(params).text('id') ?? '';
    const tx = this.transactions.get('changelly', id, Date.now());
    if (!tx) {
      throw new RpcFailure(INVALID_PARAMS, 'Invalid parameter id: transaction not found');
    }
    return tx.status;
  }

  validateAddress(params: unknown): WireAddressValidation {
    const p = ParamsReader.object(params);
    const currency = p.currency('currency');
    return toWireAddressValidation(validateAddress(currency.blockchain, p.text('address') ?? ''));
  }
}
