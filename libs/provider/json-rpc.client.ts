import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type { ProviderConfig } from '#app/config';
import type { RpcMethod } from './changelly.wire.js';
import type { UpstreamGate } from '#app/rate-limit';
import {
  badResponse,
  mapRpcError,
  notConfigured,
  ProviderError,
  rateLimited,
  unavailable,
} from './provider.error.js';
import { providerApiKey, signProviderBody } from './request-signer.js';

/** One upstream call as it ended, for metrics. */
export interface UpstreamCallEvent {
  method: RpcMethod;
  /** 'ok' or the error code. */
  outcome: string;
  latencyMs: number;
}

export interface JsonRpcClientOptions {
  /** Waits for the shared upstream budget before every call that reaches the provider. */
  gate?: UpstreamGate;
  onCall?: (event: UpstreamCallEvent) => void;
  /** Writes the per-call line; its context names the provider. */
  logger?: Logger;
}

function errorDetail(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return `${error.name}: ${error.message}${cause}`;
  }
  return String(error);
}

/**
 * The provider's transport (docs/decisions.md, "The provider's wire protocol"): JSON-RPC 2.0 over
 * HTTP POST with compact bodies signed by the provider key, a timeout on every call, every failure
 * a typed `ProviderError`, one log line and one listener event per call that reached the provider.
 */
export class JsonRpcClient {
  private readonly apiKey: string;
  private readonly logger: Logger;

  constructor(
    private readonly config: ProviderConfig,
    private readonly options: JsonRpcClientOptions = {},
  ) {
    this.apiKey = providerApiKey(config.privateKey);
    this.logger = options.logger ?? new Logger(JsonRpcClient.name);
  }

  /**
   * Calls `method` and reads its result with `read`; whatever `read` throws that is not already a
   * `ProviderError` becomes `upstream_bad_response`.
   */
  async call<T>(method: RpcMethod, params: unknown, read: (result: unknown) => T): Promise<T> {
    await this.options.gate?.acquire();
    const started = performance.now();
    try {
      const result = await this.send(method, params);
      let value: T;
      try {
        value = read(result);
      } catch (error: unknown) {
        throw error instanceof ProviderError
          ? error
          : badResponse(method, errorDetail(error), error);
      }
      this.record(method, 'ok', started);
      return value;
    } catch (error: unknown) {
      const typed =
        error instanceof ProviderError ? error : unavailable(method, errorDetail(error), error);
      this.record(method, typed.code, started, typed);
      throw typed;
    }
  }

  private async send(method: RpcMethod, params: unknown): Promise<unknown> {
    const body = JSON.stringify({ jsonrpc: '2.0', id: randomUUID(), method, params });
    const timeout = AbortSignal.timeout(this.config.timeoutMs);
    let status: number;
    let text: string;
    try {
      const response = await fetch(this.config.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'X-Api-Key': this.apiKey,
          'X-Api-Signature': signProviderBody(this.config.privateKey, body),
        },
        body,
        signal: timeout,
      });
      status = response.status;
      text = await response.text();
    } catch (error: unknown) {
      throw unavailable(
        method,
        timeout.aborted ? `timeout after ${this.config.timeoutMs} ms` : errorDetail(error),
        error,
      );
    }
    if (status === 429) {
      throw rateLimited(method, null, `HTTP 429`);
    }
    if (status >= 500) {
      throw unavailable(method, `HTTP ${status}`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
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

  private record(method: RpcMethod, outcome: string, started: number, error?: ProviderError): void {
    const latencyMs = Math.round(performance.now() - started);
    const fields = {
      method,
      latencyMs,
      outcome,
      upstreamCode: error?.upstreamCode ?? undefined,
      detail: error?.upstreamMessage ?? undefined,
    };
    if (error) {
      this.logger.warn(fields, 'upstream call failed');
    } else {
      this.logger.log(fields, 'upstream call');
    }
    this.options.onCall?.({ method, outcome, latencyMs });
  }
}
