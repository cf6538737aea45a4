import { Logger } from '@nestjs/common';
import type { ChangeNowConfig } from '#app/config';
import { ErrorCode } from '#app/errors';
import {
  CHANGENOW_API_KEY_HEADER,
  CHANGENOW_ERRORS,
  type ChangeNowOperation,
} from './changenow.wire.js';
import { parseExactJson } from './exact-json.js';
import type { HttpAnswer, HttpCall } from './http.transport.js';
import {
  badResponse,
  notConfigured,
  ProviderError,
  rateExpired,
  rateLimited,
  UPSTREAM_RETRY_AFTER_MS,
} from './provider.error.js';
import { UpstreamCallRunner, type UpstreamCallOptions } from './upstream-call.runner.js';

export type ChangeNowClientOptions = UpstreamCallOptions;

/** What `Retry-After` asks for (whole seconds, or an HTTP date), in ms; one second when unreadable. */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number {
  const value = Array.isArray(header) ? header[0] : header;
  if (value !== undefined && /^\d+$/.test(value.trim())) {
    return Math.max(UPSTREAM_RETRY_AFTER_MS, Number(value.trim()) * 1000);
  }
  const date = value === undefined ? NaN : Date.parse(value);
  return Number.isNaN(date)
    ? UPSTREAM_RETRY_AFTER_MS
    : Math.max(UPSTREAM_RETRY_AFTER_MS, date - now);
}

/**
 * A 4xx answer with an error word (docs/decisions.md, "The ChangeNOW wire protocol"): a refusal
 * that made nothing, in the contract's codes. An address the provider refuses gets the answer a
 * refused address gets from Changelly: the generic rejection with `upstream_code` -32602.
 */
export function mapChangeNowError(
  method: ChangeNowOperation,
  word: string,
  message: string,
): ProviderError {
  const base = {
    method,
    delivery: 'refused' as const,
    upstreamError: word,
    upstreamMessage: message,
  };
  switch (word) {
    case CHANGENOW_ERRORS.notValidAddress:
      return new ProviderError(
        ErrorCode.InvalidRequest,
        /refund/i.test(message) ? 'Invalid refund address' : 'Invalid address',
        { ...base, upstreamCode: -32602 },
      );
    case CHANGENOW_ERRORS.pairIsInactive:
      return new ProviderError(
        ErrorCode.PairUnsupported,
        'This currency pair is not available at the moment.',
        { ...base, param: 'pair' },
      );
    case CHANGENOW_ERRORS.rateIdNotFoundOrExpired:
      return rateExpired(base);
    case CHANGENOW_ERRORS.outOfRange:
      // The adapter names the bound from the pair's range; without it, this is what is known.
      return new ProviderError(ErrorCode.InvalidRequest, message, { ...base, param: 'amountFrom' });
    default:
      return new ProviderError(ErrorCode.InvalidRequest, message, base);
  }
}

/** The answer's JSON, every number as its exact decimal text. */
function parsed(method: ChangeNowOperation, answer: HttpAnswer): unknown {
  try {
    return parseExactJson(answer.body);
  } catch (error: unknown) {
    throw badResponse(method, `HTTP ${answer.status}, body is not JSON`, error);
  }
}

/** The result of a 200 answer; every other answer is the typed error it means. */
function restResult(method: ChangeNowOperation, answer: HttpAnswer): unknown {
  const { status } = answer;
  if (status === 401 || status === 403) {
    throw notConfigured(method, null, `HTTP ${status}`);
  }
  if (status === 429) {
    throw rateLimited(method, {
      upstreamMessage: 'HTTP 429',
      retryAfterMs: retryAfterMs(answer.headers['retry-after']),
    });
  }
  if (status >= 500) {
    throw new ProviderError(
      ErrorCode.UpstreamError,
      'The liquidity provider could not process the request. Please retry later.',
      { method, delivery: 'unknown', upstreamMessage: `HTTP ${status}` },
    );
  }
  const body = parsed(method, answer);
  if (status === 200) {
    return body;
  }
  const error = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  if (status >= 400 && status < 500 && typeof error.error === 'string') {
    const message = typeof error.message === 'string' ? error.message : error.error;
    throw mapChangeNowError(method, error.error, message);
  }
  throw badResponse(method, `HTTP ${status}, no result and no error word`);
}

/**
 * ChangeNOW's transport (docs/decisions.md, "The ChangeNOW wire protocol"): REST under
 * `<CHANGENOW_URL>/v2/`, the API key in `x-changenow-api-key` (never logged), JSON bodies, a
 * timeout on every call, every failure a typed `ProviderError` that says whether the call may
 * have taken effect.
 */
export class ChangeNowClient {
  private readonly base: URL;
  private readonly runner: UpstreamCallRunner;

  constructor(
    private readonly config: ChangeNowConfig,
    options: ChangeNowClientOptions = {},
  ) {
    this.base = new URL(config.url.endsWith('/') ? config.url : `${config.url}/`);
    this.runner = new UpstreamCallRunner('changenow', config.timeoutMs, {
      ...options,
      logger: options.logger ?? new Logger(ChangeNowClient.name),
    });
  }

  get<T>(
    method: ChangeNowOperation,
    path: string,
    query: Record<string, string>,
    read: (result: unknown) => T,
  ): Promise<T> {
    return this.call(
      method,
      () => {
        const url = new URL(`v2/${path}`, this.base);
        for (const [key, value] of Object.entries(query)) {
          url.searchParams.set(key, value);
        }
        return { method: 'GET', url, headers: this.headers() };
      },
      read,
    );
  }

  post<T>(
    method: ChangeNowOperation,
    path: string,
    body: object,
    read: (result: unknown) => T,
  ): Promise<T> {
    return this.call(
      method,
      () => ({
        method: 'POST',
        url: new URL(`v2/${path}`, this.base),
        headers: { ...this.headers(), 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      }),
      read,
    );
  }

  private call<T>(
    method: ChangeNowOperation,
    build: () => HttpCall,
    read: (result: unknown) => T,
  ): Promise<T> {
    return this.runner.run(method, build, (answer) => restResult(method, answer), read);
  }

  private headers(): Record<string, string> {
    return { Accept: 'application/json', [CHANGENOW_API_KEY_HEADER]: this.config.apiKey };
  }
}
