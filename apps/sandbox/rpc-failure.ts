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
