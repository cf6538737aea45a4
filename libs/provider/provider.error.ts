import { AppError, ErrorCode } from '#app/errors';

export interface ProviderErrorOptions {
  /** The upstream JSON-RPC method that failed. */
  method: string;
  param?: string | null;
  upstreamCode?: number | null;
  upstreamMessage?: string | null;
  retryAfterMs?: number | null;
  /** The min or max the provider named in an amount rejection. */
  bound?: string | null;
  cause?: unknown;
}

/**
 * Every failure of a provider call. It is an `AppError`, so the global filter renders it with the
 * status of its code; the extra fields let callers decide (retry, re-quote, explain).
 */
export class ProviderError extends AppError {
  readonly method: string;
  readonly upstreamMessage: string | null;
  readonly bound: string | null;

  constructor(code: ErrorCode, message: string, options: ProviderErrorOptions) {
    super(code, message, {
      param: options.param ?? null,
      upstreamCode: options.upstreamCode ?? null,
      retryAfterMs: options.retryAfterMs ?? null,
      cause: options.cause,
    });
    this.name = 'ProviderError';
    this.method = options.method;
    this.upstreamMessage = options.upstreamMessage ?? null;
    this.bound = options.bound ?? null;
  }
}

export const UPSTREAM_RETRY_AFTER_MS = 1000;

const DECIMAL = '(\\d+(?:\\.\\d+)?)';
const MIN_AMOUNT = new RegExp(`minim(?:al|um) amount[^\\d]*${DECIMAL}`, 'i');
const MAX_AMOUNT = new RegExp(`maxim(?:al|um) amount[^\\d]*${DECIMAL}`, 'i');

/** The request field a -32602 rejection names, as far as its message tells: a pair or an amount. */
function rejectedParam(message: string): 'pair' | 'amountFrom' | null {
  if (/rate ?id|address/i.test(message)) {
    return null;
  }
  if (/currenc|pair/i.test(message)) {
    return 'pair';
  }
  return /amount/i.test(message) ? 'amountFrom' : null;
}

/** The JSON-RPC error table in docs/decisions.md, "The provider's wire protocol". */
export function mapRpcError(method: string, code: number, message: string): ProviderError {
  const base = { method, upstreamCode: code, upstreamMessage: message };
  if (code === -32600) {
    const min = MIN_AMOUNT.exec(message);
    if (min?.[1]) {
      return new ProviderError(
        ErrorCode.AmountBelowMin,
        `The amount is below the minimum of ${min[1]}.`,
        {
          ...base,
          param: 'amountFrom',
          bound: min[1],
        },
      );
    }
    const max = MAX_AMOUNT.exec(message);
    if (max?.[1]) {
      return new ProviderError(
        ErrorCode.AmountAboveMax,
        `The amount is above the maximum of ${max[1]}.`,
        {
          ...base,
          param: 'amountFrom',
          bound: max[1],
        },
      );
    }
    if (/requests limit/i.test(message)) {
      return rateLimited(method, code, message);
    }
    if (/unauthori[sz]ed|signature|api key/i.test(message)) {
      return notConfigured(method, code, message);
    }
    return new ProviderError(ErrorCode.InvalidRequest, message, base);
  }
  if (code === -32602) {
    if (/rateId was expired or already used/i.test(message)) {
      return new ProviderError(
        ErrorCode.RateExpired,
        'The fixed rate has expired or was already used. Request a new quote.',
        { ...base, param: 'rateId' },
      );
    }
    return new ProviderError(ErrorCode.InvalidRequest, message, {
      ...base,
      param: rejectedParam(message),
    });
  }
  return new ProviderError(
    ErrorCode.UpstreamError,
    'The liquidity provider could not process the request. Please retry later.',
    base,
  );
}

export function rateLimited(
  method: string,
  code: number | null,
  message: string | null,
): ProviderError {
  return new ProviderError(
    ErrorCode.UpstreamRateLimited,
    'The liquidity provider request limit was reached. Please retry shortly.',
    { method, upstreamCode: code, upstreamMessage: message, retryAfterMs: UPSTREAM_RETRY_AFTER_MS },
  );
}

export function notConfigured(
  method: string,
  code: number | null,
  message: string | null,
): ProviderError {
  return new ProviderError(
    ErrorCode.UpstreamNotConfigured,
    'The liquidity provider refused our credentials.',
    { method, upstreamCode: code, upstreamMessage: message },
  );
}

export function badResponse(method: string, detail: string, cause?: unknown): ProviderError {
  return new ProviderError(
    ErrorCode.UpstreamBadResponse,
    'The liquidity provider returned an unreadable response.',
    { method, upstreamMessage: detail, cause },
  );
}

export function emptyQuote(method: string): ProviderError {
  return new ProviderError(
    ErrorCode.UpstreamEmptyQuote,
    'The liquidity provider returned no quote. Please retry shortly.',
    { method },
  );
}

export function unavailable(method: string, detail: string, cause?: unknown): ProviderError {
  return new ProviderError(
    ErrorCode.UpstreamUnavailable,
    'The liquidity provider is temporarily unavailable. Please retry later.',
    { method, upstreamMessage: detail, cause },
  );
}
