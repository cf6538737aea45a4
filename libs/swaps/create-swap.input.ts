/** The body of `POST /v1/swaps` after DTO validation. */
export interface CreateSwapInput {
  from: string;
  to: string;
  amountFrom: string;
  address: string;
  refundAddress?: string;
  partnerReferenceId?: string;
  mode?: SwapMode;
  rateId?: string;
  extraId?: string;
}

export interface CreatedSwap<T> {
  swap: T;
  /** True when the answer replays an earlier request with the same key. */
  replayed: boolean;
}
import { type SwapMode } from '#app/domain';
