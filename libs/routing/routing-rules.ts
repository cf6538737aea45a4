import { Decimal } from 'decimal.js';
import type { ProviderName, SwapMode } from '#app/domain';
import { AppError, ErrorCode } from '#app/errors';
import { ProviderError, type ProviderPairParams } from '#app/provider';
import type { CallVerdict } from './provider-circuits.js';

/**
 * The rules of routing as plain functions (docs/decisions.md, "Liquidity routing across
 * providers"): what a call's outcome tells a circuit, which refusals let a creation move on to
 * the next provider, how bounds refuse an amount across providers, and how offers rank.
 */

/** One provider's bounds for one flow of a pair (null: it sets no maximum). */
export interface FlowBounds<Max extends string | null = string | null> {
  min: string;
  max: Max;
}

/** The bounds of `flow` in a provider's pair params. */
export function flowBounds(params: ProviderPairParams, flow: SwapMode): FlowBounds<string> {
  return flow === 'fixed'
    ? { min: params.minAmountFixed, max: params.maxAmountFixed }
    : { min: params.minAmountFloat, max: params.maxAmountFloat };
}

export function admits(bounds: FlowBounds, amount: string): boolean {
  const value = new Decimal(amount);
  return value.gte(bounds.min) && (bounds.max === null || value.lte(bounds.max));
}

/** The union of several providers' bounds: the lowest minimum, the highest maximum. */
export function unionBounds(all: readonly FlowBounds<string>[]): FlowBounds<string> {
  return {
    min: Decimal.min(...all.map((b) => b.min)).toFixed(),
    max: Decimal.max(...all.map((b) => b.max)).toFixed(),
  };
}

/**
 * Why no provider takes `amount` (null when one does): below every minimum, the lowest minimum;
 * above every maximum, the highest maximum; in a gap between two providers' ranges, the smallest
 * minimum above it (the amount a partner could raise it to).
 */
export function boundsRefusal(
  all: readonly FlowBounds[],
  amount: string,
  ticker: string,
): AppError | null {
  if (all.some((bounds) => admits(bounds, amount))) {
    return null;
  }
  const value = new Decimal(amount);
  const minimumsAbove = all.map((b) => new Decimal(b.min)).filter((min) => min.gt(value));
  if (minimumsAbove.length > 0) {
    const bound = Decimal.min(...minimumsAbove).toFixed();
    return new AppError(ErrorCode.AmountBelowMin, `Minimal amount is ${bound} ${ticker}.`, {
      param: 'amountFrom',
    });
  }
  const max = Decimal.max(...all.flatMap((b) => (b.max === null ? [] : [b.max]))).toFixed();
  return new AppError(ErrorCode.AmountAboveMax, `Maximal amount is ${max} ${ticker}.`, {
    param: 'amountFrom',
  });
}

const CIRCUIT_FAILURES = new Set<ErrorCode>([
  ErrorCode.UpstreamUnavailable,
  ErrorCode.UpstreamError,
  ErrorCode.UpstreamBadResponse,
]);

/**
 * What a quote or create call tells the provider's circuit: a timeout, an HTTP 5xx, an unreadable
 * answer or a failed connection is a failure; an answer is a success; a rate limit, an empty quote
 * and a refusal of the input count neither way. A refusal by our own budget never reached it.
 */
export function callVerdict(error: unknown): CallVerdict {
  if (error === null) {
    return 'success';
  }
  if (!(error instanceof ProviderError)) {
    return 'neutral';
  }
  if (isBudgetRefusal(error)) {
    return 'neutral';
  }
  return CIRCUIT_FAILURES.has(error.code) ? 'failure' : 'neutral';
}

/** Our own budget for the provider had no slot for the call: it never left. */
export function isBudgetRefusal(error: unknown): boolean {
  return (
    error instanceof ProviderError &&
    error.delivery === 'not_sent' &&
    error.code === ErrorCode.UpstreamRateLimited
  );
}

/** The refusals that prove nothing was made and are not about the partner's input. */
const PROVIDER_SIDE_REFUSALS = new Set<ErrorCode>([
  ErrorCode.UpstreamRateLimited,
  ErrorCode.AmountBelowMin,
  ErrorCode.AmountAboveMax,
  ErrorCode.PairUnsupported,
]);

/**
 * Whether a failed create may be tried at the next provider: only when the call provably made
 * nothing (it never left, or the provider refused it) and the refusal is the provider's own
 * (its rate limit, its range, its inactive pair, a circuit or budget of ours). An address the
 * provider refused is the partner's error; a call that may have reached the provider (a timeout,
 * a reset after sending, a 5xx, an unreadable answer) is resolved at that provider by a lookup.
 */
export function mayFailOver(error: unknown): boolean {
  if (!(error instanceof ProviderError)) {
    return false;
  }
  switch (error.delivery) {
    case 'not_sent':
      return true;
    case 'refused':
      return PROVIDER_SIDE_REFUSALS.has(error.code);
    case 'unknown':
      return false;
  }
}

/** A refusal of the amount or the pair: what a quote answers when no provider gave one. */
export function isRefusal(error: unknown): error is AppError {
  return (
    error instanceof AppError &&
    [ErrorCode.AmountBelowMin, ErrorCode.AmountAboveMax, ErrorCode.PairUnsupported].includes(
      error.code,
    )
  );
}

/** An offer with what it is worth to the user, as ranked. */
export interface Scored<T> {
  provider: ProviderName;
  /** The provider's place in `PROVIDERS`: the earlier wins a tie. */
  order: number;
  score: Decimal;
  value: T;
}

/** Best first: the higher score, then the earlier provider. */
export function rank<T>(offers: readonly Scored<T>[]): Scored<T>[] {
  return [...offers].sort((a, b) => b.score.comparedTo(a.score) || a.order - b.order);
}

/** Finished float swaps on a pair before a provider's estimate is weighed by its fidelity. */
export const FIDELITY_MIN_SWAPS = 20;

/**
 * The score a float estimate ranks with: what the user receives, times the provider's fidelity on
 * the pair (capped at 1) once it has enough finished swaps there, so over-promising does not win.
 */
export function weighByFidelity(
  receives: Decimal,
  fidelity: { value: string | null; swaps: number } | null,
): Decimal {
  if (fidelity === null || fidelity.value === null || fidelity.swaps < FIDELITY_MIN_SWAPS) {
    return receives;
  }
  return receives.mul(Decimal.min(1, fidelity.value));
}
