import { timingSafeEqual } from 'node:crypto';
import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import type { SandboxConfig } from '#app/config';
import { CHANGENOW_ERRORS, type ChangeNowOperation } from '#app/provider';
import { CallStats } from './call.stats.js';
import { ChangeNowExchangeService } from './changenow-exchange.service.js';
import { ChangeNowFailure } from './changenow-failure.js';
import { ChangeNowParams } from './changenow-params.reader.js';
import { FaultBook, type Fault } from './fault.book.js';
import {
  HeldAnswers,
  HTTP_500_REPLY,
  jsonReply,
  NON_JSON_REPLY,
  type HttpReply,
} from './http-reply.js';
import { SANDBOX_CONFIG, SANDBOX_OPTIONS, type ResolvedSandboxOptions } from './sandbox.options.js';

/** One request as the controller hands it over. */
export interface ChangeNowRequest {
  apiKey: string | undefined;
  query: unknown;
  /** The raw body of a POST; empty for a GET. */
  body: Buffer;
}

/** How long the sandbox asks a rate-limited caller to wait, in seconds. */
const RETRY_AFTER_SECONDS = 1;

function failure(status: number, error: string, message: string): HttpReply {
  return jsonReply(status, { error, message });
}

/**
 * The `/changenow/v2` API: checks the key, counts the call, applies an armed fault, then
 * dispatches. Refusals are HTTP 4xx with `{"error", "message"}`, as ChangeNOW answers.
 */
@Injectable()
export class ChangeNowApiService implements OnApplicationShutdown {
  private readonly logger = new Logger(ChangeNowApiService.name);
  readonly faults = new FaultBook('changenow');
  readonly stats = new CallStats();
  private readonly held = new HeldAnswers();
  private readonly apiKey: Buffer | null;

  constructor(
    @Inject(SANDBOX_CONFIG) config: SandboxConfig,
    @Inject(SANDBOX_OPTIONS) private readonly options: ResolvedSandboxOptions,
    private readonly exchange: ChangeNowExchangeService,
  ) {
    this.apiKey = config.changenowApiKey === null ? null : Buffer.from(config.changenowApiKey);
  }

  async handle(operation: ChangeNowOperation, request: ChangeNowRequest): Promise<HttpReply> {
    if (!this.authorized(request.apiKey)) {
      this.stats.rejected('unauthorized');
      this.logger.warn({ operation }, 'rejected a call with a bad API key');
      return failure(401, CHANGENOW_ERRORS.unauthorized, 'Invalid api key');
    }
    this.stats.record(operation, Date.now());
    const fault = this.faults.take(operation);
    if (fault) {
      this.stats.fault();
      this.logger.log({ operation, mode: fault.mode }, 'serving an armed fault');
      if (fault.mode !== 'timeout') {
        return this.faultReply(fault);
      }
    }
    const reply = this.dispatch(operation, request);
    if (fault?.mode === 'timeout') {
      await this.held.hold(fault.delayMs ?? this.options.timeoutFaultMs);
    }
    return reply;
  }

  onApplicationShutdown(): void {
    this.held.releaseAll();
  }

  private authorized(apiKey: string | undefined): boolean {
    if (this.apiKey === null || apiKey === undefined) {
      return false;
    }
    const given = Buffer.from(apiKey);
    return given.length === this.apiKey.length && timingSafeEqual(given, this.apiKey);
  }

  private dispatch(operation: ChangeNowOperation, request: ChangeNowRequest): HttpReply {
    try {
      return jsonReply(200, this.invoke(operation, request));
    } catch (error: unknown) {
      if (error instanceof ChangeNowFailure) {
        return failure(error.status, error.error, error.message);
      }
      this.logger.error(
        { operation, err: error instanceof Error ? error.message : String(error) },
        'sandbox failure',
      );
      return failure(500, 'internal_error', 'Internal error');
    }
  }

  private invoke(operation: ChangeNowOperation, request: ChangeNowRequest): unknown {
    switch (operation) {
      case 'currencies':
        return this.exchange.currencies(ChangeNowParams.query(request.query));
      case 'range':
        return this.exchange.range(ChangeNowParams.query(request.query));
      case 'estimated-amount':
        return this.exchange.estimate(ChangeNowParams.query(request.query));
      case 'exchange':
        return this.exchange.create(ChangeNowParams.body(request.body));
      case 'exchanges':
        return this.exchange.exchanges(ChangeNowParams.query(request.query));
      case 'by-id':
        return this.exchange.byId(ChangeNowParams.query(request.query));
      case 'validate-address':
        return this.exchange.validateAddress(ChangeNowParams.query(request.query));
    }
  }

  private faultReply(fault: Fault): HttpReply {
    switch (fault.mode) {
      case 'non_json':
        return NON_JSON_REPLY;
      case 'empty_result':
        return jsonReply(200, {});
      case 'rpc_error': {
        const error = typeof fault.code === 'string' ? fault.code : CHANGENOW_ERRORS.outOfRange;
        return failure(400, error, fault.message ?? `Armed fault: ${error}`);
      }
      case 'rate_limit':
        return jsonReply(
          429,
          { error: CHANGENOW_ERRORS.tooManyRequests, message: 'Too many requests' },
          { 'Retry-After': String(RETRY_AFTER_SECONDS) },
        );
      case 'http_500':
        return HTTP_500_REPLY;
      case 'timeout':
        return failure(500, 'internal_error', 'Internal error');
    }
  }
}
