import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type { ProviderConfig } from '#app/config';
import type { RpcMethod } from './changelly.wire.js';
import type { HttpAnswer } from './http.transport.js';
import {
  badResponse,
  mapRpcError,
  notConfigured,
  rateLimited,
  unavailable,
} from './provider.error.js';
import { providerApiKey, signProviderBody } from './request-signer.js';
import { UpstreamCallRunner, type UpstreamCallOptions } from './upstream-call.runner.js';

export type JsonRpcClientOptions = UpstreamCallOptions;

/**
 * The provider's transport (docs/decisions.md, "The provider's wire protocol"): JSON-RPC 2.0 over
 * HTTP POST with compact bodies signed by the provider key, a timeout on every call, every failure
 * a typed `ProviderError`, one log line and one listener event per call that reached the provider.
 */
export class JsonRpcClient {
  private readonly apiKey: string;
  private readonly url: URL;
  private readonly runner: UpstreamCallRunner;

  constructor(
    private readonly config: ProviderConfig,
    options: JsonRpcClientOptions = {},
  ) {
    this.apiKey = providerApiKey(config.privateKey);
    this.url = new URL(config.url);
    this.runner = new UpstreamCallRunner('changelly', config.timeoutMs, {
      ...options,
      logger: options.logger ?? new Logger(JsonRpcClient.name),
    });
  }

  /**
   * Calls `method` and reads its result with `read`; whatever `read` throws that is not already a
   * `ProviderError` becomes `upstream_bad_response`.
   */
  async call<T>(method: RpcMethod, params: unknown, read: (result: unknown) => T): Promise<T> {
    return this.runner.run(
      method,
      () => {
        const body = JSON.stringify({ jsonrpc: '2.0', id: randomUUID(), method, params });
        return {
          method: 'POST',
          url: this.url,
          headers: {
            'Content-Type': 'application/json',
            'X-Api-Key': this.apiKey,
            'X-Api-Signature': signProviderBody(this.config.privateKey, body),
          },
          body,
        };
      },
      (answer) => rpcResult(method, answer),
      read,
    );
  }
}

/** The `result` of a JSON-RPC answer; every other answer is the typed error it means. */
function rpcResult(method: RpcMethod, { status, body }: HttpAnswer): unknown {
  if (status === 429) {
    throw rateLimited(method, { upstreamMessage: 'HTTP 429' });
  }
  if (status >= 500) {
    throw unavailable(method, `HTTP ${status}`, 'unknown');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (error: unknown) {
    throw badResponse(method, `HTTP ${status}, body is not JSON`, error);
  }
  const envelope =
    parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : null;
  const rpcError = envelope?.error as { code?: unknown; message?: unknown } | undefined;
  if (rpcError && typeof rpcError === 'object') {
    const code = typeof rpcError.code === 'number' ? rpcError.code : -32603;
    const message = typeof rpcError.message === 'string' ? rpcError.message : '';
    throw mapRpcError(method, code, message);
  }
  if (status === 401 || status === 403) {
    throw notConfigured(method, null, `HTTP ${status}`);
  }
  if (status !== 200 || envelope === null || !('result' in envelope)) {
    throw badResponse(method, `HTTP ${status}, no JSON-RPC result`);
  }
  return envelope.result;
}
