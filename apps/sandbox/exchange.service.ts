import { Inject, Injectable } from '@nestjs/common';
import { Decimal } from 'decimal.js';
import type { ProviderStatus } from '#app/domain';
import { validateAddress } from '#app/chains';
import type { SandboxConfig } from '#app/config';
import type {
  WireAddressValidation,
  WireCreatedTransaction,
  WireCurrency,
  WireFixedQuote,
  WireFloatQuote,
  WirePairParams,
  WireTransaction,
} from '#app/provider';
import { CATALOGUE } from './catalogue.js';
import { LifecycleClock } from './lifecycle.clock.js';
import { Market } from './market.js';
import { ParamsReader } from './params.reader.js';
import { checkQuotedAmount, checkQuotedPair, RateBook } from './rate.book.js';
import { amountBelowMin, INVALID_PARAMS, RpcFailure } from './rpc-failure.js';
import { SANDBOX_OPTIONS, type ResolvedSandboxOptions, SANDBOX_CONFIG } from './sandbox.options.js';
import { SeededRandom } from './seeded-random.js';
import { TransactionBook } from './transaction.book.js';
import {
  toTransactionView,
  toWireAddressValidation,
  toWireCreatedTransaction,
  toWireCurrency,
  toWireFixedQuote,
  toWireFloatQuote,
  toWirePairParams,
  toWireTransaction,
  type SandboxTransactionView,
} from './wire.mapper.js';

/** What a new swap promises: the quote net of the network fee, which must leave something. */
function expectedPayout(amountTo: Decimal, networkFee: Decimal, min: Decimal): Decimal {
  const expected = amountTo.minus(networkFee);
  if (expected.lte(0)) {
    throw amountBelowMin(min);
  }
  return expected;
}

/**
 * The sandbox exchange: reads each call's params, prices it on the market, books it and answers
 * in upstream's wire shapes. All state is in memory and every random choice comes from the
 * configured seed.
 */
@Injectable()
export class ExchangeService {
  private readonly random: SeededRandom;
  private readonly market: Market;
  private readonly rates: RateBook;
  private readonly transactions: TransactionBook;

  constructor(
    @Inject(SANDBOX_CONFIG) config: SandboxConfig,
    @Inject(SANDBOX_OPTIONS) private readonly options: ResolvedSandboxOptions,
  ) {
    this.random = new SeededRandom(config.seed);
    this.market = new Market(CATALOGUE, config.seed, options.priceStepMs, Date.now());
    this.rates = new RateBook(this.random, options.rateTtlMs);
    const clock = new LifecycleClock({
      stepMs: config.stepMs,
      floatWindowMs: options.floatWindowMs,
    });
    this.transactions = new TransactionBook(this.random, this.market, clock);
  }

  reset(): void {
    this.random.reset();
    this.market.reset(Date.now());
    this.transactions.clear();
    this.rates.clear();
  }

  getCurrenciesFull(): WireCurrency[] {
    return CATALOGUE.map(toWireCurrency);
  }

  getPairsParams(params: unknown): WirePairParams[] {
    const now = Date.now();
    return ParamsReader.items(params).map((p) => {
      const [from, to] = p.pair('float');
      return toWirePairParams(from, to, this.market.bounds(from, now));
    });
  }

  getExchangeAmount(params: unknown): WireFloatQuote[] {
    const now = Date.now();
    return ParamsReader.items(params).map((p) => {
      const [from, to] = p.pair('float');
      const bounds = this.market.bounds(from, now);
      const amountFrom = p.amountFrom(from, { min: bounds.minFloat, max: bounds.maxFloat });
      const price = this.market.floatPrice(from, to, amountFrom, now);
      return toWireFloatQuote(from, to, amountFrom, price, bounds);
    });
  }

  getFixRateForAmount(params: unknown): WireFixedQuote[] {
    const now = Date.now();
    return ParamsReader.items(params).map((p) => {
      const [from, to] = p.pair('fixed');
      const bounds = this.market.bounds(from, now);
      const amountFrom = p.amountFrom(from, { min: bounds.minFixed, max: bounds.maxFixed });
      const price = this.market.fixedPrice(from, to, amountFrom, now);
      return toWireFixedQuote(this.rates.issue(from, to, amountFrom, price, now), bounds);
    });
  }

  createTransaction(params: unknown): WireCreatedTransaction {
    const now = Date.now();
    const p = ParamsReader.object(params);
    const [from, to] = p.pair('float');
    const bounds = this.market.bounds(from, now);
    const amountFrom = p.amountFrom(from, { min: bounds.minFloat, max: bounds.maxFloat });
    const payoutAddress = p.payoutAddress(to);
    const refundAddress = p.optionalRefundAddress(from);
    const userMetadata = p.userMetadata();
    const price = this.market.floatPrice(from, to, amountFrom, now);
    const tx = this.transactions.open(
      {
        type: 'float',
        from,
        to,
        payoutAddress,
        refundAddress,
        userMetadata,
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
      this.market.bounds(from, now).minFixed,
    );
    this.rates.redeem(rate);
    const tx = this.transactions.open(
      {
        type: 'fixed',
        from,
        to,
        payoutAddress,
        refundAddress,
        userMetadata,
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
    const tx = this.transactions.get(ParamsReader.object(params).text('id') ?? '', Date.now());
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

  /** Control API: the user's deposit arrives now (or, with `late`, after the deadline). */
  deposit(id: string, amount: string | undefined, late: boolean): SandboxTransactionView {
    return toTransactionView(this.transactions.deposit(id, amount, late, Date.now()));
  }

  /** Control API: any status, now. Lifecycle steps resume the clock; others freeze it. */
  forceStatus(id: string, status: ProviderStatus): SandboxTransactionView {
    return toTransactionView(this.transactions.force(id, status, Date.now()));
  }

  view(id: string): SandboxTransactionView {
    return toTransactionView(this.transactions.find(id, Date.now()));
  }
}
