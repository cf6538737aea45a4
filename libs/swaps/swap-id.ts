import { randomBytes } from 'node:crypto';

/** Current ids: 16 lowercase hex from a CSPRNG (docs/decisions.md, "Swap ids"). */
export const CURRENT_SWAP_ID = /^[0-9a-f]{16}$/;
/** Ids imported from the previous system. */
export const LEGACY_SWAP_ID = /^swp_[A-Za-z0-9_-]{1,60}$/;

export function newSwapId(): string {
  return randomBytes(8).toString('hex');
}

export function isSwapId(id: string): boolean {
  return CURRENT_SWAP_ID.test(id) || LEGACY_SWAP_ID.test(id);
}
