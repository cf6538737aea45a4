/** `float` (default): settled at market. `fixed`: a rate locked by a short-lived `rateId`. */
export const SWAP_MODES = ['float', 'fixed'] as const;
export type SwapMode = (typeof SWAP_MODES)[number];

export const DEFAULT_SWAP_MODE: SwapMode = 'float';
