import { TERMINAL_STATUSES, type SwapStatus } from '#app/persistence';
import type { ProviderStatus } from '#app/provider';

/**
 * The forward-only graph of DECISIONS §3.1. Skips are allowed because polls are 30 s apart;
 * a terminal status has no way out.
 */
const FORWARD: Readonly<Record<SwapStatus, readonly SwapStatus[]>> = {
  waiting: [
    'confirming',
    'exchanging',
    'sending',
    'finished',
    'failed',
    'refunded',
    'overdue',
    'expired',
    'hold',
  ],
  confirming: ['exchanging', 'sending', 'finished', 'failed', 'refunded', 'hold'],
  exchanging: ['sending', 'finished', 'failed', 'refunded', 'hold'],
  sending: ['finished', 'failed', 'refunded', 'hold'],
  hold: ['confirming', 'exchanging', 'sending', 'finished', 'failed', 'refunded'],
  finished: [],
  failed: [],
  refunded: [],
  overdue: [],
  expired: [],
};

/** What a reported status means for a stored one. */
export type TransitionVerdict =
  | { kind: 'unchanged' }
  | { kind: 'advance'; to: SwapStatus }
  | { kind: 'violation'; to: SwapStatus };

/** The provider's `new` is the service's `waiting`. */
export function toSwapStatus(status: ProviderStatus): SwapStatus {
  return status === 'new' ? 'waiting' : status;
}

export function isTerminal(status: SwapStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}

export function isAllowedTransition(from: SwapStatus, to: SwapStatus): boolean {
  return FORWARD[from].includes(to);
}

/** Judges a provider report against the stored status. */
export function judgeTransition(current: SwapStatus, reported: ProviderStatus): TransitionVerdict {
  const to = toSwapStatus(reported);
  if (to === current) {
    return { kind: 'unchanged' };
  }
  return isAllowedTransition(current, to) ? { kind: 'advance', to } : { kind: 'violation', to };
}
