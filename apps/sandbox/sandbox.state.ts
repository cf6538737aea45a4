import { Inject, Injectable } from '@nestjs/common';
import type { SandboxConfig } from '#app/config';
import { CATALOGUE } from './catalogue.js';
import { LifecycleClock } from './lifecycle.clock.js';
import { Market } from './market.js';
import { RateBook } from './rate.book.js';
import { SANDBOX_CONFIG, SANDBOX_OPTIONS, type ResolvedSandboxOptions } from './sandbox.options.js';
import { SeededRandom } from './seeded-random.js';
import { SpreadBook } from './spread.book.js';
import { TransactionBook } from './transaction.book.js';

/**
 * What both providers' APIs share, so they trade on one market: the seeded generator, the
 * spreads, the prices, the transactions (one book, so ids are unique across both). Each provider
 * honours only its own fixed rates. All in memory; every random choice comes from the seed.
 */
@Injectable()
export class SandboxState {
  readonly random: SeededRandom;
  readonly spreads: SpreadBook;
  readonly market: Market;
  readonly transactions: TransactionBook;
  readonly changellyRates: RateBook;
  readonly changenowRates: RateBook;

  constructor(
    @Inject(SANDBOX_CONFIG) config: SandboxConfig,
    @Inject(SANDBOX_OPTIONS) options: ResolvedSandboxOptions,
  ) {
    this.random = new SeededRandom(config.seed);
    this.spreads = new SpreadBook(CATALOGUE, config.seed);
    this.market = new Market(CATALOGUE, config.seed, options.priceStepMs, Date.now(), this.spreads);
    this.changellyRates = new RateBook(this.random, options.rateTtlMs);
    this.changenowRates = new RateBook(this.random, options.rateTtlMs);
    const clock = new LifecycleClock({
      stepMs: config.stepMs,
      floatWindowMs: options.floatWindowMs,
    });
    this.transactions = new TransactionBook(this.random, this.market, clock);
  }

  /** Forgets every transaction and rate, restores the seeded spreads, restarts the sequences. */
  reset(): void {
    this.random.reset();
    this.market.reset(Date.now());
    this.spreads.restore();
    this.transactions.clear();
    this.changellyRates.clear();
    this.changenowRates.clear();
  }
}
