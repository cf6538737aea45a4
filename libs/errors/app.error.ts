import { ERROR_TABLE, ErrorCode, ErrorType } from './error-code.js';

export interface AppErrorOptions {
  param?: string | null;
  upstreamCode?: number | null;
  retryAfterMs?: number | null;
  cause?: unknown;
}

/** A domain error: a code from the spec's table, a message fit for the end user, and details. */
export class AppError extends Error {
  readonly param: string | null;
  readonly upstreamCode: number | null;
  readonly retryAfterMs: number | null;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.param = options.param ?? null;
    this.upstreamCode = options.upstreamCode ?? null;
    this.retryAfterMs = options.retryAfterMs ?? null;
  }

  get type(): ErrorType {
    return ERROR_TABLE[this.code].type;
  }

  /**
   * The code partners see (a provider outage is `upstream_error` with 503: docs/decisions.md, "The
   * provider's wire protocol").
   */
  get wireCode(): string {
    return ERROR_TABLE[this.code].wireCode ?? this.code;
  }

  get status(): number {
    return ERROR_TABLE[this.code].status;
  }
}
