/** The spec's ten swap statuses (States and transitions). */
export const SWAP_STATUSES = [
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
export type SwapStatus = (typeof SWAP_STATUSES)[number];

/** A swap in one of these never changes again. */
export const TERMINAL_STATUSES: readonly SwapStatus[] = [
  'finished',
  'failed',
  'refunded',
  'overdue',
  'expired',
];

export function isTerminal(status: SwapStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}

export function isSwapStatus(value: string): value is SwapStatus {
  return (SWAP_STATUSES as readonly string[]).includes(value);
}

/**
 * The forward-only graph of docs/decisions.md, "Swap statuses only move forward". Skips are allowed
 * because polls are 30 s apart; a terminal status has no way out.
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

export function isAllowedTransition(from: SwapStatus, to: SwapStatus): boolean {
  return FORWARD[from].includes(to);
}
