/**
 * Every error code the service answers with: the contract's code table plus docs/decisions.md,
 * "Error codes beyond the contract's table".
 */
export enum ErrorCode {
  AmountBelowMin = 'amount_below_min',
  AmountAboveMax = 'amount_above_max',
  PairUnsupported = 'pair_unsupported',
  MissingIdempotencyKey = 'missing_idempotency_key',
  MissingRateId = 'missing_rate_id',
  MissingRefundAddress = 'missing_refund_address',
  InvalidRequest = 'invalid_request',
  InvalidAddress = 'invalid_address',
  InvalidJson = 'invalid_json',
  PayloadTooLarge = 'payload_too_large',
  UnsupportedMediaType = 'unsupported_media_type',
  HeadersTooLarge = 'headers_too_large',
  RequestTimeout = 'request_timeout',
  MethodNotAllowed = 'method_not_allowed',
  Unauthenticated = 'unauthenticated',
  OrgPendingReview = 'org_pending_review',
  OrgSuspended = 'org_suspended',
  OrgRejected = 'org_rejected',
  TestModeOnly = 'test_mode_only',
  OriginNotAllowed = 'origin_not_allowed',
  NotFound = 'not_found',
  IdempotencyKeyMismatch = 'idempotency_key_mismatch',
  IdempotencyKeyInUse = 'idempotency_key_in_use',
  RateExpired = 'rate_expired',
  /** The resource's current state forbids the request (a deposit into a finished test swap). */
  Conflict = 'conflict',
  ExchangeNotProcessable = 'exchange_not_processable',
  RateLimited = 'rate_limited',
  UpstreamRateLimited = 'upstream_rate_limited',
  ProviderCredentialPending = 'provider_credential_pending',
  UpstreamNotConfigured = 'upstream_not_configured',
  UpstreamBadResponse = 'upstream_bad_response',
  UpstreamEmptyQuote = 'upstream_empty_quote',
  UpstreamError = 'upstream_error',
  UpstreamUnavailable = 'upstream_unavailable',
  ServiceUnavailable = 'service_unavailable',
  Internal = 'internal',
  /** The partner dashboard's accounts. */
  Forbidden = 'forbidden',
  EmailTaken = 'email_taken',
  LastOwner = 'last_owner',
}

export type ErrorType =
  | 'validation_error'
  | 'authentication_error'
  | 'authorization_error'
  | 'not_found'
  | 'conflict'
  | 'unprocessable'
  | 'rate_limit_error'
  | 'upstream_error'
  | 'internal_error';

export interface ErrorClass {
  type: ErrorType;
  status: number;
  /** The code on the wire when it differs from the internal one (one wire code, two statuses). */
  wireCode?: string;
}

/** code → (type, HTTP status). Exhaustive: adding a code without a row fails to compile. */
export const ERROR_TABLE: Record<ErrorCode, ErrorClass> = {
  [ErrorCode.AmountBelowMin]: { type: 'validation_error', status: 400 },
  [ErrorCode.AmountAboveMax]: { type: 'validation_error', status: 400 },
  [ErrorCode.PairUnsupported]: { type: 'validation_error', status: 400 },
  [ErrorCode.MissingIdempotencyKey]: { type: 'validation_error', status: 400 },
  [ErrorCode.MissingRateId]: { type: 'validation_error', status: 400 },
  [ErrorCode.MissingRefundAddress]: { type: 'validation_error', status: 400 },
  [ErrorCode.InvalidRequest]: { type: 'validation_error', status: 400 },
  [ErrorCode.InvalidAddress]: { type: 'validation_error', status: 400 },
  [ErrorCode.InvalidJson]: { type: 'validation_error', status: 400 },
  [ErrorCode.PayloadTooLarge]: { type: 'validation_error', status: 413 },
  [ErrorCode.UnsupportedMediaType]: { type: 'validation_error', status: 415 },
  [ErrorCode.HeadersTooLarge]: { type: 'validation_error', status: 431 },
  [ErrorCode.RequestTimeout]: { type: 'validation_error', status: 408 },
  [ErrorCode.MethodNotAllowed]: { type: 'validation_error', status: 405 },
  [ErrorCode.Unauthenticated]: { type: 'authentication_error', status: 401 },
  [ErrorCode.OrgPendingReview]: { type: 'authorization_error', status: 403 },
  [ErrorCode.OrgSuspended]: { type: 'authorization_error', status: 403 },
  [ErrorCode.OrgRejected]: { type: 'authorization_error', status: 403 },
  [ErrorCode.TestModeOnly]: { type: 'authorization_error', status: 403 },
  [ErrorCode.OriginNotAllowed]: { type: 'authorization_error', status: 403 },
  [ErrorCode.NotFound]: { type: 'not_found', status: 404 },
  [ErrorCode.IdempotencyKeyMismatch]: { type: 'conflict', status: 409 },
  [ErrorCode.IdempotencyKeyInUse]: { type: 'conflict', status: 409 },
  [ErrorCode.RateExpired]: { type: 'conflict', status: 409 },
  [ErrorCode.Conflict]: { type: 'conflict', status: 409 },
  [ErrorCode.ExchangeNotProcessable]: { type: 'unprocessable', status: 422 },
  [ErrorCode.RateLimited]: { type: 'rate_limit_error', status: 429 },
  [ErrorCode.UpstreamRateLimited]: { type: 'rate_limit_error', status: 429 },
  [ErrorCode.ProviderCredentialPending]: { type: 'upstream_error', status: 503 },
  [ErrorCode.UpstreamNotConfigured]: { type: 'upstream_error', status: 503 },
  [ErrorCode.UpstreamBadResponse]: { type: 'upstream_error', status: 502 },
  [ErrorCode.UpstreamEmptyQuote]: { type: 'upstream_error', status: 502 },
  [ErrorCode.UpstreamError]: { type: 'upstream_error', status: 502 },
  [ErrorCode.UpstreamUnavailable]: {
    type: 'upstream_error',
    status: 503,
    wireCode: 'upstream_error',
  },
  [ErrorCode.ServiceUnavailable]: { type: 'internal_error', status: 503, wireCode: 'internal' },
  [ErrorCode.Internal]: { type: 'internal_error', status: 500 },
  [ErrorCode.Forbidden]: { type: 'authorization_error', status: 403 },
  [ErrorCode.EmailTaken]: { type: 'conflict', status: 409 },
  [ErrorCode.LastOwner]: { type: 'conflict', status: 409 },
};
