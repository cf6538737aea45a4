import { isAllowedTransition, type SwapStatus } from './swap-status.js';

/** The provider's status vocabulary: the spec's ten plus `new`. */
export const PROVIDER_STATUSES = [
  'new',
  'waiting',
  'confirming',
  'exchanging',
  'sending',
  'finished',
  'failed',
  'refunded',
  'overdue',
  'expired',
  'hold',
] as const;
export type ProviderStatus = (typeof PROVIDER_STATUSES)[number];

export function isProviderStatus(value: string): value is ProviderStatus {
  return (PROVIDER_STATUSES as readonly string[]).includes(value);
}

/**
 * The provider's `new` is the service's `waiting` (docs/decisions.md, "Swap statuses only move
 * forward").
 */
export function toSwapStatus(status: ProviderStatus): SwapStatus {
  return status === 'new' ? 'waiting' : status;
}

/** What a reported status means for a stored one. */
export type TransitionVerdict =
  | { kind: 'unchanged' }
  | { kind: 'advance'; to: SwapStatus }
  | { kind: 'violation'; to: SwapStatus };

/** Judges a reported status (already mapped with `toSwapStatus`) against the stored one. */
export function judgeTransition(current: SwapStatus, to: SwapStatus): TransitionVerdict {
  if (to === current) {
    return { kind: 'unchanged' };
  }
  return isAllowedTransition(current, to) ? { kind: 'advance', to } : { kind: 'violation', to };
}
