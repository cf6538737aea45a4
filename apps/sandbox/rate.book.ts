import type { Decimal } from 'decimal.js';
import type { SandboxCurrency } from './catalogue.js';
import type { FixedPrice } from './market.js';
import { INVALID_PARAMS, RpcFailure } from './rpc-failure.js';
import type { SeededRandom } from './seeded-random.js';

/** A fixed price locked by `getFixRateForAmount`: good for one transaction until it expires. */
export interface FixedRate {
  id: string;
  from: string;
  to: string;
  amountFrom: Decimal;
  rate: Decimal;
  amountTo: Decimal;
  networkFee: Decimal;
  expiresAtMs: number;
  used: boolean;
}

/** A fixed transaction must be for the pair the rate was quoted for. */
export function checkQuotedPair(rate: FixedRate, from: SandboxCurrency, to: SandboxCurrency): void {
  if (from.ticker !== rate.from || to.ticker !== rate.to) {
    throw new RpcFailure(INVALID_PARAMS, 'Invalid currency pair: it does not match the rateId');
  }
}

/** A fixed transaction must be for the amount the rate was quoted for. */
export function checkQuotedAmount(rate: FixedRate, amountFrom: Decimal): void {
  if (!amountFrom.eq(rate.amountFrom)) {
    throw new RpcFailure(
      INVALID_PARAMS,
      'Invalid amount: amountFrom does not match the quoted amount',
    );
  }
}

/** The fixed rates handed out, each honoured only until `expiredAt` and only once. */
export class RateBook {
  private readonly rates = new Map<string, FixedRate>();

  constructor(
    private readonly random: SeededRandom,
    private readonly ttlMs: number,
  ) {}

  issue(
    from: SandboxCurrency,
    to: SandboxCurrency,
    amountFrom: Decimal,
    price: FixedPrice,
    now: number,
  ): FixedRate {
    const rate: FixedRate = {
      id: this.random.alphanumeric(32),
      from: from.ticker,
      to: to.ticker,
      amountFrom,
      rate: price.rate,
      amountTo: price.amountTo,
      networkFee: price.networkFee,
      expiresAtMs: now + this.ttlMs,
      used: false,
    };
    this.rates.set(rate.id, rate);
    return rate;
  }

  /** The rate, if a transaction may still use it; null when unknown, used or expired. */
  usable(id: string | undefined, now: number): FixedRate | null {
    const rate = id === undefined ? undefined : this.rates.get(id);
    return !rate || rate.used || now >= rate.expiresAtMs ? null : rate;
  }

  /** The rate, if a transaction may still use it; Changelly's refusal otherwise. */
  redeemable(id: string | undefined, now: number): FixedRate {
    const rate = this.usable(id, now);
    if (!rate) {
      throw new RpcFailure(INVALID_PARAMS, 'rateId was expired or already used');
    }
    return rate;
  }

  redeem(rate: FixedRate): void {
    rate.used = true;
  }

  clear(): void {
    this.rates.clear();
  }
}
