import { Logger } from '@nestjs/common';
import { Decimal } from 'decimal.js';
import type { ProviderName, SwapMode } from '#app/domain';
import { AppError, ErrorCode } from '#app/errors';
import {
  ProviderError,
  type LiquidityProvider,
  type ProviderFleet,
  type ProviderCurrency,
  type ProviderPairParams,
} from '#app/provider';
import { withoutWaitingForBudget } from '#app/rate-limit';
import type { ProviderCircuits } from './provider-circuits.js';

import type { ProviderStats } from './provider-stats.js';
import type { ProviderStatsRepository } from './provider-stats.repository.js';
import type { ProviderSwitches } from './provider-switches.js';
import {
  admits,
  boundsRefusal,
  callVerdict,
  flowBounds,
  isBudgetRefusal,
  isRefusal,
  rank,
  weighByFidelity,
  type FlowBounds,
  type Scored,
} from './routing-rules.js';

/** A quote asked of several providers at once waits this long for each. */
export const QUOTE_TIME_LIMIT_MS = 2_500;
/** A provider's fidelity on a pair is read again after this long. */
const FIDELITY_TTL_MS = 60_000;

/** What one provider offers on a pair: its own bounds, and whether it quotes fixed rates. */
export interface PairOffer {
  provider: LiquidityProvider;
  params: ProviderPairParams;
  fixed: boolean;
}

/** The currencies of every provider in routing, once each, and what each provider lists. */
export interface RoutedCatalogue {
  currencies: ProviderCurrency[];
  byProvider: ReadonlyMap<ProviderName, ProviderCurrency[]>;
}

/** A quote one provider gave, with what it is worth to the user. */
export interface ProviderOffer<Q> {
  offer: PairOffer;
  quote: Q;
}

/** How a routed ask should treat the providers' bounds. */
export interface RouteAsk<Q> {
  livemode: boolean;
  offers: readonly PairOffer[];
  /** Canonical tickers, for messages and fidelity. */
  from: string;
  to: string;
  amountFrom: string;
  flow: SwapMode;
  /** One provider's quote. */
  ask: (provider: LiquidityProvider) => Promise<Q>;
  /** What the user receives of a quote (after the partner fee and the network fee). */
  receives: (quote: Q) => Decimal;
}

/**
 * Routes quotes and swaps across the providers of `PROVIDERS` (docs/decisions.md, "Liquidity
 * routing across providers"): which providers are in routing (operators' switches), which are
 * preferred (circuits), asking several at once within a time limit and without waiting for a
 * budget, ranking what they answer by what the user receives, and recording what each call
 * showed (circuits, stats). Partners never see a provider's name; operators do.
 */
export class LiquidityRouter {
  private readonly logger = new Logger(LiquidityRouter.name);
  private readonly fidelities = new Map<string, { at: number; value: Promise<Fidelity> }>();
  private lastCatalogue: { lists: ProviderCurrency[][]; routed: RoutedCatalogue } | null = null;

  constructor(
    private readonly fleet: ProviderFleet,
    private readonly switches: ProviderSwitches,
    private readonly circuits: ProviderCircuits,
    private readonly stats: ProviderStats,
    private readonly history: Pick<ProviderStatsRepository, 'fidelity'>,
    private readonly now: () => number = Date.now,
  ) {}

  /** The adapter a swap or fixed rate lives at: routing never moves it. */
  provider(name: ProviderName, livemode: boolean): LiquidityProvider {
    return this.fleet.get(name, livemode);
  }

  /** The mode's providers in routing, in `PROVIDERS` order. */
  async enabled(livemode: boolean): Promise<LiquidityProvider[]> {
    const adapters = this.fleet.of(livemode);
    const on = await this.switches.enabled(adapters.map((a) => a.name));
    return adapters.filter((a) => on.includes(a.name));
  }

  /**
   * Every listed currency of the providers in routing, once (the first provider's entry, with
   * the flags of all), and each provider's own list. A provider that cannot list its currencies
   * is left out; only when none can does the catalogue fail.
   */
  async catalogue(livemode: boolean): Promise<RoutedCatalogue> {
    const providers = await this.enabled(livemode);
    const settled = await Promise.allSettled(providers.map((p) => p.getCurrencies()));
    const lists: ProviderCurrency[][] = [];
    const byProvider = new Map<ProviderName, ProviderCurrency[]>();
    for (const [i, result] of settled.entries()) {
      if (result.status === 'fulfilled') {
        lists.push(result.value);
        byProvider.set(providers[i].name, result.value);
      } else {
        this.logger.warn(
          { provider: providers[i].name, err: errorText(result.reason) },
          'provider currencies unavailable; routing without them',
        );
      }
    }
    if (lists.length === 0) {
      throw firstRejection(settled);
    }
    const last = this.lastCatalogue;
    if (last && last.lists.length === lists.length && last.lists.every((l, i) => l === lists[i])) {
      return last.routed;
    }
    const routed = { currencies: unionOfCurrencies(lists), byProvider };
    this.lastCatalogue = { lists, routed };
    return routed;
  }

  /** The first provider in routing (in `PROVIDERS` order) that lists `ticker`. */
  async listing(livemode: boolean, ticker: string): Promise<LiquidityProvider> {
    const { byProvider } = await this.catalogue(livemode);
    const providers = await this.enabled(livemode);
    return (
      providers.find((p) => byProvider.get(p.name)?.some((c) => c.ticker === ticker)) ??
      providers[0]
    );
  }

  /**
   * What each provider in routing offers on a pair (both currencies listed and usable in that
   * direction there, and its own bounds). A provider whose bounds cannot be read is left out;
   * only when every one failed does this fail.
   */
  async offers(livemode: boolean, from: string, to: string): Promise<PairOffer[]> {
    const { byProvider } = await this.catalogue(livemode);
    const listing = (await this.enabled(livemode)).flatMap((provider) => {
      const listed = byProvider.get(provider.name) ?? [];
      const source = listed.find((c) => c.ticker === from);
      const target = listed.find((c) => c.ticker === to);
      if (!source?.enabled || !source.enabledFrom || !target?.enabled || !target.enabledTo) {
        return [];
      }
      return [{ provider, fixed: source.fixRateEnabled && target.fixRateEnabled }];
    });
    const settled = await Promise.allSettled(
      listing.map((l) => l.provider.getPairParams(from, to)),
    );
    const offers: PairOffer[] = [];
    const failures: unknown[] = [];
    for (const [i, result] of settled.entries()) {
      if (result.status === 'fulfilled') {
        offers.push({ ...listing[i], params: result.value });
      } else if (!isPairRefusal(result.reason)) {
        failures.push(result.reason);
        this.logger.warn(
          { provider: listing[i].provider.name, from, to, err: errorText(result.reason) },
          'provider pair bounds unavailable; routing without them',
        );
      }
    }
    if (offers.length === 0 && failures.length > 0) {
      throw failures[0];
    }
    return offers;
  }

  /**
   * Asks every provider that can take the amount, in parallel, and answers their quotes best
   * first; a quote that no provider gave answers why (docs/decisions.md, "Liquidity routing across
   * providers"). The best one is counted as a win.
   */
  async quote<Q>(ask: RouteAsk<Q>): Promise<Scored<ProviderOffer<Q>>[]> {
    const ranked = await this.ranked(ask);
    this.stats.won(ranked[0].provider, ask.livemode);
    return ranked;
  }

  /**
   * The providers a float swap is created at, best first: with one provider able to take it,
   * that one without asking for a quote (as a single-provider service always did); with more, a
   * routed quote at this moment ranks them.
   */
  async creationOrder<Q>(ask: RouteAsk<Q>): Promise<PairOffer[]> {
    const eligible = this.eligible(ask);
    if (eligible.length === 1) {
      return eligible;
    }
    return (await this.ranked(ask)).map((scored) => scored.value.offer);
  }

  /**
   * Runs one create call at `provider`, recording what it showed of the provider (circuit,
   * stats). The caller decides what a failure means for the swap.
   */
  async create<T>(
    provider: LiquidityProvider,
    livemode: boolean,
    call: () => Promise<T>,
  ): Promise<T> {
    const started = this.now();
    try {
      const created = await call();
      await this.observed(provider, livemode, 'create', started, null);
      return created;
    } catch (error: unknown) {
      await this.observed(provider, livemode, 'create', started, error);
      throw error;
    }
  }

  private eligible<Q>(ask: RouteAsk<Q>): PairOffer[] {
    if (ask.offers.length === 0) {
      throw new AppError(ErrorCode.PairUnsupported, 'This currency pair is not supported.', {
        param: 'pair',
      });
    }
    const withFlow = ask.offers
      .filter((offer) => ask.flow === 'float' || offer.fixed)
      .map((offer) => ({ offer, bounds: flowBounds(offer.params, ask.flow) }));
    if (withFlow.length === 0) {
      throw new AppError(
        ErrorCode.PairUnsupported,
        'Fixed rates are not available for this pair.',
        {
          param: 'pair',
        },
      );
    }
    const refusal = boundsRefusal(
      withFlow.map((w) => w.bounds),
      ask.amountFrom,
      ask.from,
    );
    if (refusal) {
      throw refusal;
    }
    return withFlow.filter((w) => admits(w.bounds, ask.amountFrom)).map((w) => w.offer);
  }

  private async ranked<Q>(ask: RouteAsk<Q>): Promise<Scored<ProviderOffer<Q>>[]> {
    const eligible = this.eligible(ask);
    const asked = await this.preferred(eligible, ask.livemode);
    const parallel = asked.length > 1;
    const answers = await Promise.all(
      asked.map((offer) => this.askOne(offer, ask, parallel ? 'limited' : 'patient')),
    );
    let quoted = answers.flatMap((a, i) => (a.ok ? [{ offer: asked[i], quote: a.quote }] : []));
    const failures = answers.flatMap((a) => (a.ok ? [] : [a.error]));
    if (quoted.length === 0 && parallel && failures.every(isBudgetRefusal)) {
      // Every budget was spent this instant: wait for the first provider's, as one provider
      // would, and answer as it does (429 `upstream_rate_limited` when none comes in time).
      const retry = await this.askOne(asked[0], ask, 'patient');
      if (!retry.ok) {
        throw retry.error;
      }
      quoted = [{ offer: asked[0], quote: retry.quote }];
    }
    if (quoted.length === 0) {
      throw parallel ? this.noQuote(failures, ask) : failures[0];
    }
    const scored = await Promise.all(
      quoted.map(async (q) => ({
        provider: q.offer.provider.name,
        order: this.fleet.order(q.offer.provider.name),
        score:
          ask.flow === 'float'
            ? weighByFidelity(ask.receives(q.quote), await this.fidelity(q.offer, ask))
            : ask.receives(q.quote),
        value: q,
      })),
    );
    return rank(scored);
  }

  /**
   * The offers to ask: those whose circuit is closed (or whose half-open probe this call takes);
   * when none is, every one (an open circuit only demotes).
   */
  private async preferred(eligible: PairOffer[], livemode: boolean): Promise<PairOffer[]> {
    if (eligible.length === 1) {
      return eligible;
    }
    const admitted = await Promise.all(
      eligible.map((offer) => this.circuits.admit({ provider: offer.provider.name, livemode })),
    );
    const healthy = eligible.filter((_, i) => admitted[i]);
    return healthy.length > 0 ? healthy : eligible;
  }

  private async askOne<Q>(
    offer: PairOffer,
    ask: RouteAsk<Q>,
    patience: 'limited' | 'patient',
  ): Promise<{ ok: true; quote: Q } | { ok: false; error: unknown }> {
    const started = this.now();
    const call =
      patience === 'limited'
        ? withoutWaitingForBudget(() => ask.ask(offer.provider))
        : ask.ask(offer.provider);
    try {
      const quote = patience === 'limited' ? await withinTimeLimit(call) : await call;
      await this.observed(offer.provider, ask.livemode, 'quote', started, null);
      return { ok: true, quote };
    } catch (error: unknown) {
      await this.observed(offer.provider, ask.livemode, 'quote', started, error);
      this.logger.warn(
        { provider: offer.provider.name, from: ask.from, to: ask.to, err: errorText(error) },
        'provider quote failed; routed around it',
      );
      return { ok: false, error };
    }
  }

  private async observed(
    provider: LiquidityProvider,
    livemode: boolean,
    kind: 'quote' | 'create',
    started: number,
    error: unknown,
  ): Promise<void> {
    const latencyMs = this.now() - started;
    const failed = error !== null && !isRefusal(error);
    if (isBudgetRefusal(error)) {
      this.stats.budgetExhausted(provider.name, livemode, kind);
    }
    if (kind === 'quote') {
      this.stats.quoted(provider.name, livemode, latencyMs, failed);
    } else {
      this.stats.created(provider.name, livemode, latencyMs, failed);
    }
    await this.circuits.record({ provider: provider.name, livemode }, callVerdict(error));
  }

  /**
   * The answer when several providers were asked and none quoted: a refusal of the amount or
   * pair over a failure (an amount every provider refused names the bound across them), else
   * 503 `upstream_error`.
   */
  private noQuote<Q>(failures: unknown[], ask: RouteAsk<Q>): unknown {
    const refusals = failures.filter(isRefusal);
    if (refusals.length === 0) {
      return new AppError(
        ErrorCode.UpstreamUnavailable,
        'No liquidity provider could quote this swap right now. Retry shortly.',
        { cause: failures[0] },
      );
    }
    const bounds = refusals.map(boundsOfRefusal);
    if (refusals.length === failures.length && bounds.every((b) => b !== null)) {
      return boundsRefusal(bounds, ask.amountFrom, ask.from) ?? refusals[0];
    }
    return refusals[0];
  }

  private async fidelity<Q>(offer: PairOffer, ask: RouteAsk<Q>): Promise<Fidelity> {
    const key = `${offer.provider.name}:${ask.livemode}:${ask.from}:${ask.to}`;
    const cached = this.fidelities.get(key);
    if (cached && this.now() - cached.at < FIDELITY_TTL_MS) {
      return cached.value;
    }
    const value = this.history
      .fidelity(offer.provider.name, ask.livemode, { from: ask.from, to: ask.to })
      .catch((error: unknown) => {
        this.logger.warn({ err: errorText(error) }, 'provider fidelity unreadable; unweighted');
        return { value: null, swaps: 0 };
      });
    this.fidelities.set(key, { at: this.now(), value });
    return value;
  }
}

type Fidelity = { value: string | null; swaps: number };

/** A refusal that says the provider does not offer the pair at all. */
function isPairRefusal(error: unknown): boolean {
  return (
    error instanceof AppError &&
    (error.code === ErrorCode.PairUnsupported || error.code === ErrorCode.InvalidRequest)
  );
}

/** The bound a provider named when it refused the amount, as bounds of its own. */
function boundsOfRefusal(refusal: AppError): FlowBounds | null {
  if (!(refusal instanceof ProviderError) || refusal.bound === null) {
    return null;
  }
  return refusal.code === ErrorCode.AmountBelowMin
    ? { min: refusal.bound, max: null }
    : { min: '0', max: refusal.bound };
}

/**
 * Stops waiting for `call` after the quote time limit; its late answer is dropped. The message
 * names no provider: partners never learn which one was asked (the log line names it).
 */
async function withinTimeLimit<T>(call: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new ProviderError(
            ErrorCode.UpstreamUnavailable,
            `A liquidity provider did not quote within ${QUOTE_TIME_LIMIT_MS} ms.`,
            { method: 'quote', delivery: 'unknown' },
          ),
        ),
      QUOTE_TIME_LIMIT_MS,
    );
  });
  call.catch(() => undefined);
  try {
    return await Promise.race([call, limit]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * One entry per ticker: the first provider's (in `PROVIDERS` order), usable in a direction when
 * any provider's is, memo currencies as any provider names them.
 */
function unionOfCurrencies(lists: readonly ProviderCurrency[][]): ProviderCurrency[] {
  const byTicker = new Map<string, ProviderCurrency>();
  for (const list of lists) {
    for (const currency of list) {
      const known = byTicker.get(currency.ticker);
      byTicker.set(
        currency.ticker,
        known
          ? {
              ...known,
              enabled: known.enabled || currency.enabled,
              enabledFrom: known.enabledFrom || currency.enabledFrom,
              enabledTo: known.enabledTo || currency.enabledTo,
              fixRateEnabled: known.fixRateEnabled || currency.fixRateEnabled,
              extraIdName: known.extraIdName ?? currency.extraIdName,
            }
          : currency,
      );
    }
  }
  return [...byTicker.values()];
}

function firstRejection(settled: PromiseSettledResult<unknown>[]): unknown {
  const rejected = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  return (
    rejected?.reason ?? new AppError(ErrorCode.UpstreamUnavailable, 'No provider is in routing.')
  );
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
