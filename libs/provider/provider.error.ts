import { AppError, ErrorCode } from '#app/errors';

/**
 * Whether a failed call may have taken effect at the provider (docs/decisions.md, "Which failures
 * prove nothing was made"): `not_sent` never reached it (refused connection, unknown host, connect
 * timeout, our own budget refusing); `refused` it answered with a definite error and made
 * nothing; `unknown` it may have processed the call (timeout or reset after sending, HTTP 5xx, an
 * unreadable answer, a JSON-RPC internal error).
 */
export type Delivery = 'not_sent' | 'refused' | 'unknown';

export interface ProviderErrorOptions {
  /** The upstream method or operation that failed. */
  method: string;
  delivery: Delivery;
  param?: string | null;
  upstreamCode?: number | null;
  /** The provider's own error word, where it names errors so (ChangeNOW's `out_of_range`). */
  upstreamError?: string | null;
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
  readonly delivery: Delivery;
  readonly upstreamError: string | null;
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
    this.delivery = options.delivery;
    this.upstreamError = options.upstreamError ?? null;
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

/**
 * The JSON-RPC error table in docs/decisions.md, "The provider's wire protocol". Every answer but
 * an internal error (-32603) is a refusal that made nothing.
 */
export function mapRpcError(method: string, code: number, message: string): ProviderError {
  const delivery: Delivery = code === -32603 ? 'unknown' : 'refused';
  const base = { method, delivery, upstreamCode: code, upstreamMessage: message };
  if (code === -32600) {
    const min = MIN_AMOUNT.exec(message)?.[1];
    if (min) {
      return outOfBounds('min', min, base);
    }
    const max = MAX_AMOUNT.exec(message)?.[1];
    if (max) {
      return outOfBounds('max', max, base);
    }
    if (/requests limit/i.test(message)) {
      return rateLimited(method, { upstreamCode: code, upstreamMessage: message });
    }
    if (/unauthori[sz]ed|signature|api key/i.test(message)) {
      return notConfigured(method, code, message);
    }
    return new ProviderError(ErrorCode.InvalidRequest, message, base);
  }
  if (code === -32602) {
    if (/rateId was expired or already used/i.test(message)) {
      return rateExpired(base);
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

/** Details of a provider's refusal, beyond its code. */
type RefusalDetails = Omit<ProviderErrorOptions, 'param' | 'bound'>;

/** The amount is outside the provider's bounds; the error names the bound it broke. */
export function outOfBounds(
  side: 'min' | 'max',
  bound: string,
  details: RefusalDetails,
): ProviderError {
  return side === 'min'
    ? new ProviderError(ErrorCode.AmountBelowMin, `The amount is below the minimum of ${bound}.`, {
        ...details,
        param: 'amountFrom',
        bound,
      })
    : new ProviderError(ErrorCode.AmountAboveMax, `The amount is above the maximum of ${bound}.`, {
        ...details,
        param: 'amountFrom',
        bound,
      });
}

export function rateExpired(details: RefusalDetails): ProviderError {
  return new ProviderError(
    ErrorCode.RateExpired,
    'The fixed rate has expired or was already used. Request a new quote.',
    { ...details, param: 'rateId' },
  );
}

/** The provider's own limit: it answered, so nothing was made. */
export function rateLimited(
  method: string,
  details: { upstreamCode?: number | null; upstreamMessage: string; retryAfterMs?: number },
): ProviderError {
  return new ProviderError(
    ErrorCode.UpstreamRateLimited,
    'The liquidity provider request limit was reached. Please retry shortly.',
    {
      method,
      delivery: 'refused',
      upstreamCode: details.upstreamCode,
      upstreamMessage: details.upstreamMessage,
      retryAfterMs: details.retryAfterMs ?? UPSTREAM_RETRY_AFTER_MS,
    },
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
    { method, delivery: 'refused', upstreamCode: code, upstreamMessage: message },
  );
}

/** An answer we cannot read: the call may have been processed all the same. */
export function badResponse(method: string, detail: string, cause?: unknown): ProviderError {
  return new ProviderError(
    ErrorCode.UpstreamBadResponse,
    'The liquidity provider returned an unreadable response.',
    { method, delivery: 'unknown', upstreamMessage: detail, cause },
  );
}

/** A quote call answered with no quote: nothing is ever made by a quote. */
export function emptyQuote(method: string): ProviderError {
  return new ProviderError(
    ErrorCode.UpstreamEmptyQuote,
    'The liquidity provider returned no quote. Please retry shortly.',
    { method, delivery: 'refused' },
  );
}

/**
 * No usable answer: never sent (`not_sent`), or sent and then lost, or answered with HTTP 5xx
 * (`unknown`).
 */
export function unavailable(
  method: string,
  detail: string,
  delivery: Exclude<Delivery, 'refused'>,
  cause?: unknown,
): ProviderError {
  return new ProviderError(
    ErrorCode.UpstreamUnavailable,
    'The liquidity provider is temporarily unavailable. Please retry later.',
    { method, delivery, upstreamMessage: detail, cause },
  );
}
