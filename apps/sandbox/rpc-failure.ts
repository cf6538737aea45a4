import type { Decimal } from 'decimal.js';

/** A JSON-RPC error the sandbox answers with (HTTP 200, as upstream). */
export class RpcFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'RpcFailure';
  }
}

export const INVALID_PARAMS = -32602;
export const INVALID_REQUEST = -32600;

/** Upstream's words for an amount out of bounds; the adapter reads the bound back from them. */
export function amountBelowMin(min: Decimal): RpcFailure {
  return new RpcFailure(INVALID_REQUEST, `Invalid amount: minimal amount is ${min.toFixed()}`);
}

export function amountAboveMax(max: Decimal): RpcFailure {
  return new RpcFailure(INVALID_REQUEST, `Invalid amount: maximal amount is ${max.toFixed()}`);
}
