import { Inject, Injectable } from '@nestjs/common';
import type { Decimal } from 'decimal.js';
import { validateAddress } from '#app/chains';
import {
  CHANGENOW_ERRORS,
  jsonNumber,
  type ChangeNowWireAddressValidation,
  type ChangeNowWireCreated,
  type ChangeNowWireCurrency,
  type ChangeNowWireEstimate,
  type ChangeNowWireExchange,
  type ChangeNowWireExchanges,
  type ChangeNowWireRange,
} from '#app/provider';
import { listedBy, type SandboxCurrency } from './catalogue.js';
import { ChangeNowFailure, notValidParams, outOfRange } from './changenow-failure.js';
import type { ChangeNowParams } from './changenow-params.reader.js';
import {
  amount,
  pairNames,
  toChangeNowCreated,
  toChangeNowCurrency,
  toChangeNowExchange,
} from './changenow-wire.mapper.js';
import { payoutAfterFee } from './exchange.service.js';
import type { PairBounds } from './market.js';
import type { AmountRange } from './params.reader.js';
import { SANDBOX_OPTIONS, type ResolvedSandboxOptions } from './sandbox.options.js';
import { SandboxState } from './sandbox.state.js';

const MAX_PAGE = 100;

function rangeOf(bounds: PairBounds, fixed: boolean): AmountRange {
  return fixed
    ? { min: bounds.minFixed, max: bounds.maxFixed }
    : { min: bounds.minFloat, max: bounds.maxFloat };
}

/** What the user receives: the payout less its network fee, which must leave something. */
function netPayout(
  amountTo: Decimal,
  networkFee: Decimal,
  from: SandboxCurrency,
  min: Decimal,
): Decimal {
  const net = payoutAfterFee(amountTo, networkFee);
  if (net === null) {
    throw outOfRange('min', min, from);
  }
  return net;
}

/**
 * The sandbox's ChangeNOW (docs/decisions.md, "The sandbox serves both"): its catalogue, its
 * bounds and its spreads on the market Changelly trades on, answers in ChangeNOW's shapes and
 * words.
 */
@Injectable()
export class ChangeNowExchangeService {
  constructor(
    private readonly state: SandboxState,
    @Inject(SANDBOX_OPTIONS) private readonly options: ResolvedSandboxOptions,
  ) {}

  /** `active=true` leaves out the currencies switched off. */
  currencies(p: ChangeNowParams): ChangeNowWireCurrency[] {
    const active = p.text('active') === 'true';
    return listedBy('changenow')
      .filter((c) => !active || c.enabled)
      .map(toChangeNowCurrency);
  }

  range(p: ChangeNowParams): ChangeNowWireRange {
    const [from, to] = p.pair();
    const flow = p.flow();
    const range = rangeOf(
      this.state.market.bounds('changenow', from, Date.now()),
      flow !== 'standard',
    );
    return {
      ...pairNames(from, to),
      flow,
      minAmount: amount(range.min),
      maxAmount: amount(range.max),
    };
  }

  /** Fixed-rate with `useRateId=true` locks the rate until `validUntil`. */
  estimate(p: ChangeNowParams): ChangeNowWireEstimate {
    const now = Date.now();
    const [from, to] = p.pair();
    const flow = p.flow();
    if ((p.text('type') ?? 'direct') !== 'direct') {
      throw notValidParams('only type=direct is served');
    }
    const range = rangeOf(this.state.market.bounds('changenow', from, now), flow !== 'standard');
    const fromAmount = p.amount(from, range);
    const price =
      flow === 'standard'
        ? this.state.market.floatPrice('changenow', from, to, fromAmount, now)
        : this.state.market.fixedPrice('changenow', from, to, fromAmount, now);
    const toAmount = netPayout(price.amountTo, price.networkFee, from, range.min);
    const rate =
      flow === 'fixed-rate' && p.text('useRateId') === 'true'
        ? this.state.changenowRates.issue(from, to, fromAmount, price, now)
        : null;
    return {
      ...pairNames(from, to),
      flow,
      type: 'direct',
      rateId: rate?.id ?? null,
      validUntil: rate ? new Date(rate.expiresAtMs).toISOString() : null,
      transactionSpeedForecast: '10-60',
      warningMessage: null,
      depositFee: jsonNumber('0'),
      withdrawalFee: amount(price.networkFee),
      userId: null,
      fromAmount: amount(fromAmount),
      toAmount: amount(toAmount),
    };
  }

  /**
   * A fixed-rate exchange redeems its `rateId`, for the pair and amount it was quoted for. The
   * payload is kept and given back on every read.
   */
  create(p: ChangeNowParams): ChangeNowWireCreated {
    const now = Date.now();
    const [from, to] = p.pair();
    const flow = p.flow();
    const fixed = flow === 'fixed-rate';
    const rate = fixed ? this.state.changenowRates.usable(p.text('rateId'), now) : null;
    if (fixed && !rate) {
      throw new ChangeNowFailure(
        400,
        CHANGENOW_ERRORS.rateIdNotFoundOrExpired,
        'Rate id not found or expired',
      );
    }
    if (rate && (rate.from !== from.ticker || rate.to !== to.ticker)) {
      throw notValidParams('The pair does not match the rateId');
    }
    const range = rangeOf(this.state.market.bounds('changenow', from, now), fixed);
    const fromAmount = p.amount(from, rate ? undefined : range);
    if (rate && !fromAmount.eq(rate.amountFrom)) {
      throw notValidParams('fromAmount does not match the rateId');
    }
    const payoutAddress = p.payoutAddress(to);
    const refundAddress = p.refundAddress(from);
    const payload = p.payload();
    const price = rate ?? this.state.market.floatPrice('changenow', from, to, fromAmount, now);
    const amountExpectedTo = netPayout(price.amountTo, price.networkFee, from, range.min);
    if (rate) {
      this.state.changenowRates.redeem(rate);
    }
    const tx = this.state.transactions.open(
      {
        provider: 'changenow',
        type: fixed ? 'fixed' : 'float',
        from,
        to,
        payoutAddress,
        refundAddress,
        userMetadata: null,
        payload,
        amountExpectedFrom: fromAmount,
        amountExpectedTo,
        networkFee: price.networkFee,
        rate: price.rate,
        payTillMs: fixed ? now + this.options.fixedPayWindowMs : null,
      },
      now,
    );
    return toChangeNowCreated(tx);
  }

  byId(p: ChangeNowParams): ChangeNowWireExchange {
    const tx = this.state.transactions.get('changenow', p.required('id'), Date.now());
    if (!tx) {
      throw new ChangeNowFailure(404, CHANGENOW_ERRORS.notFound, 'Transaction not found');
    }
    return toChangeNowExchange(tx);
  }

  /** The key's transactions created in [`dateFrom`, `dateTo`], newest first, a page of them. */
  exchanges(p: ChangeNowParams): ChangeNowWireExchanges {
    const limit = p.integer('limit', 10, 1, MAX_PAGE);
    const offset = p.integer('offset', 0, 0, Number.MAX_SAFE_INTEGER);
    const matches = this.state.transactions.matching(
      {
        provider: 'changenow',
        ids: null,
        payoutAddress: null,
        statuses: null,
        sinceMs: p.time('dateFrom'),
        untilMs: p.time('dateTo'),
      },
      Date.now(),
    );
    return {
      count: matches.length,
      exchanges: matches.slice(offset, offset + limit).map(toChangeNowExchange),
    };
  }

  /** `currency` is the network the address is on. */
  validateAddress(p: ChangeNowParams): ChangeNowWireAddressValidation {
    const network = p.required('currency').toLowerCase();
    const currency = listedBy('changenow').find((c) => c.changenow.network === network);
    if (!currency) {
      throw notValidParams(`Unknown currency ${network}`);
    }
    const check = validateAddress(currency.blockchain, p.required('address'));
    return {
      result: check.valid,
      message: check.valid ? null : (check.reason ?? 'Invalid address'),
      isActivated: null,
    };
  }
}
