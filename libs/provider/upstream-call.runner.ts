import { Logger } from '@nestjs/common';
import type { ProviderName } from '#app/domain';
import { AppError, ErrorCode } from '#app/errors';
import type { UpstreamGate } from '#app/rate-limit';
import { traceClient } from '#app/tracing';
import type { RpcMethod } from './changelly.wire.js';
import type { ChangeNowOperation } from './changenow.wire.js';
import {
  HttpTransport,
  TransportFailure,
  type HttpAnswer,
  type HttpCall,
} from './http.transport.js';
import { badResponse, ProviderError, unavailable } from './provider.error.js';

/** One upstream call as it ended, for metrics. */
export interface UpstreamCallEvent {
  provider: ProviderName;
  /** The JSON-RPC method, or the REST operation. */
  method: RpcMethod | ChangeNowOperation;
  /** 'ok' or the error code. */
  outcome: string;
  latencyMs: number;
}

export interface UpstreamCallOptions {
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
 * What every provider client does around one call: the budget first (its refusal is `not_sent`),
 * the exchange within the transport's timeout, the answer read at the boundary (whatever the
 * reader throws that is not already a `ProviderError` is `upstream_bad_response`), then one log
 * line and one listener event for the call that reached the provider, never with keys.
 */
export class UpstreamCallRunner {
  private readonly transport: HttpTransport;
  private readonly logger: Logger;

  constructor(
    private readonly provider: ProviderName,
    timeoutMs: number,
    private readonly options: UpstreamCallOptions,
  ) {
    this.transport = new HttpTransport(timeoutMs);
    this.logger = options.logger ?? new Logger(UpstreamCallRunner.name);
  }

  /**
   * Sends what `build` makes (after the budget admitted the call, so signatures and ids are
   * fresh), turns the answer into a result with `interpret` (which throws the provider's typed
   * errors) and reads that result with `read`.
   */
  async run<T>(
    method: RpcMethod | ChangeNowOperation,
    build: () => HttpCall,
    interpret: (answer: HttpAnswer) => unknown,
    read: (result: unknown) => T,
  ): Promise<T> {
    await this.admit(method);
    const started = performance.now();
    try {
      const result = interpret(await this.send(method, build()));
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
      // Anything else escaped while sending: nothing tells that it did not arrive.
      const typed =
        error instanceof ProviderError
          ? error
          : unavailable(method, errorDetail(error), 'unknown', error);
      this.record(method, typed.code, started, typed);
      throw typed;
    }
  }

  private async admit(method: string): Promise<void> {
    try {
      await this.options.gate?.acquire();
    } catch (error: unknown) {
      if (error instanceof AppError) {
        throw new ProviderError(error.code, error.message, {
          method,
          delivery: 'not_sent',
          retryAfterMs: error.retryAfterMs,
          cause: error,
        });
      }
      throw error;
    }
  }

  /** One exchange, a client span of the trace it serves (the URL without its query). */
  private async send(method: string, call: HttpCall): Promise<HttpAnswer> {
    const attributes = {
      'http.request.method': call.method,
      'url.full': `${call.url.origin}${call.url.pathname}`,
      'app.provider': this.provider,
      'app.provider_method': method,
    };
    try {
      return await traceClient(`${this.provider} ${method}`, attributes, async (notes) => {
        const answer = await this.transport.send(call);
        notes.add({ 'http.response.status_code': answer.status });
        return answer;
      });
    } catch (error: unknown) {
      if (error instanceof TransportFailure) {
        throw unavailable(method, error.message, error.delivery, error);
      }
      throw error;
    }
  }

  private record(
    method: RpcMethod | ChangeNowOperation,
    outcome: string,
    started: number,
    error?: ProviderError,
  ): void {
    const latencyMs = Math.round(performance.now() - started);
    const fields = {
      provider: this.provider,
      method,
      latencyMs,
      outcome,
      delivery: error?.delivery,
      upstreamCode: error?.upstreamCode ?? undefined,
      upstreamError: error?.upstreamError ?? undefined,
      detail: error?.upstreamMessage ?? undefined,
    };
    if (error?.code === ErrorCode.UpstreamNotConfigured) {
      // Our credentials were refused: every call fails until an operator fixes the configuration.
      this.logger.error(fields, 'upstream refused our credentials');
    } else if (error) {
      this.logger.warn(fields, 'upstream call failed');
    } else {
      this.logger.log(fields, 'upstream call');
    }
    this.options.onCall?.({ provider: this.provider, method, outcome, latencyMs });
  }
}
