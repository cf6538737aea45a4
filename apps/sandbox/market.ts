import { Decimal } from 'decimal.js';
import type { ProviderName } from '#app/domain';
import type { SandboxCurrency } from './catalogue.js';
import { SeededRandom } from './seeded-random.js';
import type { SpreadBook } from './spread.book.js';

/** Provider fee on float swaps, taken in the payout currency. */
export const FLOAT_FEE = new Decimal('0.005');
/** Spread built into a fixed rate (no separate fee). */
export const FIXED_SPREAD = new Decimal('0.01');

/** USD bounds per payin; fixed is narrower than float on both ends. */
const BOUNDS_USD = {
  minFloat: new Decimal(10),
  maxFloat: new Decimal(100_000),
  minFixed: new Decimal(20),
  maxFixed: new Decimal(25_000),
};

/**
 * ChangeNOW's bounds against Changelly's: a lower minimum and a higher maximum in both flows, so
 * an amount near either end has only one provider (docs/decisions.md, "The sandbox serves both").
 */
const CHANGENOW_BOUNDS = { min: new Decimal('0.8'), max: new Decimal('1.25') };

export interface PairBounds {
  minFloat: Decimal;
  maxFloat: Decimal;
  minFixed: Decimal;
  maxFixed: Decimal;
}

export interface FloatPrice {
  rate: Decimal;
  amountTo: Decimal;
  fee: Decimal;
  networkFee: Decimal;
}

export interface FixedPrice {
  rate: Decimal;
  amountTo: Decimal;
  networkFee: Decimal;
}

/** Amounts are shown with the currency's precision, capped so bounds stay readable. */
function boundScale(currency: SandboxCurrency): number {
  return Math.min(currency.precision, 8);
}

/**
 * Prices: the reference USD table moved by a seeded random walk, one step per `stepMs` of
 * wall time since the last reset, each provider's spread taken off. The walk has its own
 * generator, so the prices at a given moment do not depend on which calls were made before.
 */
export class Market {
  private random: SeededRandom;
  private epoch: number;
  private step = 0;
  private readonly multipliers = new Map<string, Decimal>();

  constructor(
    private readonly currencies: readonly SandboxCurrency[],
    private readonly seed: number,
    private readonly stepMs: number,
    now: number,
    private readonly spreads: SpreadBook,
  ) {
    this.random = new SeededRandom(seed ^ 0x5eed);
    this.epoch = now;
  }

  reset(now: number): void {
    this.random = new SeededRandom(this.seed ^ 0x5eed);
    this.epoch = now;
    this.step = 0;
    this.multipliers.clear();
  }

  usdPrice(currency: SandboxCurrency, now: number): Decimal {
    this.advance(now);
    return new Decimal(currency.usd)
      .mul(this.multipliers.get(currency.ticker) ?? 1)
      .toSignificantDigits(12);
  }

  /** Market rate, before any fee: units of `to` per unit of `from`. */
  rate(from: SandboxCurrency, to: SandboxCurrency, now: number): Decimal {
    return this.usdPrice(from, now).div(this.usdPrice(to, now)).toSignificantDigits(12);
  }

  /** What `provider` quotes: the market rate less its spread on the pair. */
  providerRate(
    provider: ProviderName,
    from: SandboxCurrency,
    to: SandboxCurrency,
    now: number,
  ): Decimal {
    const spread = new Decimal(this.spreads.bps(provider, from.ticker, to.ticker)).div(10_000);
    return this.rate(from, to, now).mul(Decimal.sub(1, spread)).toSignificantDigits(12);
  }

  bounds(provider: ProviderName, from: SandboxCurrency, now: number): PairBounds {
    const price = this.usdPrice(from, now);
    const scale = boundScale(from);
    const [low, high] =
      provider === 'changenow'
        ? [CHANGENOW_BOUNDS.min, CHANGENOW_BOUNDS.max]
        : [new Decimal(1), new Decimal(1)];
    const up = (usd: Decimal) =>
      usd
        .div(price)
        .toDecimalPlaces(scale, Decimal.ROUND_UP)
        .mul(low)
        .toDecimalPlaces(scale, Decimal.ROUND_UP);
    const down = (usd: Decimal) =>
      usd
        .div(price)
        .toDecimalPlaces(scale, Decimal.ROUND_DOWN)
        .mul(high)
        .toDecimalPlaces(scale, Decimal.ROUND_DOWN);
    return {
      minFloat: up(BOUNDS_USD.minFloat),
      maxFloat: down(BOUNDS_USD.maxFloat),
      minFixed: up(BOUNDS_USD.minFixed),
      maxFixed: down(BOUNDS_USD.maxFixed),
    };
  }

  floatPrice(
    provider: ProviderName,
    from: SandboxCurrency,
    to: SandboxCurrency,
    amountFrom: Decimal,
    now: number,
  ): FloatPrice {
    const rate = this.providerRate(provider, from, to, now);
    const gross = amountFrom.mul(rate);
    const fee = gross.mul(FLOAT_FEE).toDecimalPlaces(to.precision, Decimal.ROUND_UP);
    const amountTo = gross.minus(fee).toDecimalPlaces(to.precision, Decimal.ROUND_DOWN);
    return { rate, amountTo, fee, networkFee: new Decimal(to.networkFee) };
  }

  fixedPrice(
    provider: ProviderName,
    from: SandboxCurrency,
    to: SandboxCurrency,
    amountFrom: Decimal,
    now: number,
  ): FixedPrice {
    const rate = this.providerRate(provider, from, to, now)
      .mul(Decimal.sub(1, FIXED_SPREAD))
      .toSignificantDigits(12);
    const amountTo = amountFrom.mul(rate).toDecimalPlaces(to.precision, Decimal.ROUND_DOWN);
    return { rate, amountTo, networkFee: new Decimal(to.networkFee) };
  }

  private advance(now: number): void {
    const target = Math.floor(Math.max(0, now - this.epoch) / this.stepMs);
    for (; this.step < target; this.step++) {
      for (const currency of this.currencies) {
        if (currency.stable) {
          continue;
        }
        // ±0.3 % per step, in whole basis points so the walk stays exact decimal arithmetic.
        const basisPoints = this.random.int(61) - 30;
        const current = this.multipliers.get(currency.ticker) ?? new Decimal(1);
        this.multipliers.set(
          currency.ticker,
          current.mul(new Decimal(basisPoints).div(10_000).plus(1)).toSignificantDigits(12),
        );
      }
    }
  }
}
