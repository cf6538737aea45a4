import { ErrorCode } from '#app/errors';
import { mapRpcError, ProviderError } from './provider.error.js';

describe(mapRpcError.name, () => {
  it.each([
    [
      -32600,
      'Invalid amount: minimal amount is 0.0015',
      ErrorCode.AmountBelowMin,
      400,
      'amountFrom',
    ],
    [-32600, 'Invalid amount: maximal amount is 12.5', ErrorCode.AmountAboveMax, 400, 'amountFrom'],
    [-32600, 'You reached requests limit', ErrorCode.UpstreamRateLimited, 429, null],
    [-32600, 'Unauthorized', ErrorCode.UpstreamNotConfigured, 503, null],
    [-32602, 'rateId was expired or already used', ErrorCode.RateExpired, 409, 'rateId'],
    [-32602, 'Invalid address', ErrorCode.InvalidRequest, 400, null],
    [-32602, 'Invalid refund address', ErrorCode.InvalidRequest, 400, null],
    [
      -32602,
      'Invalid currency pair: btc to dash is not available',
      ErrorCode.InvalidRequest,
      400,
      'pair',
    ],
    [
      -32602,
      'Invalid amount: btc takes at most 8 decimal places',
      ErrorCode.InvalidRequest,
      400,
      'amountFrom',
    ],
    [-32603, 'Internal error', ErrorCode.UpstreamError, 502, null],
    [-32601, 'Method not found', ErrorCode.UpstreamError, 502, null],
  ] as const)('maps %d "%s" to %s', (code, message, expected, status, param) => {
    const sut = mapRpcError('getExchangeAmount', code, message);

    expect(sut).toBeInstanceOf(ProviderError);
    expect(sut).toMatchObject({
      code: expected,
      status,
      param,
      upstreamCode: code,
      upstreamMessage: message,
      method: 'getExchangeAmount',
    });
  });

  it('puts the bound in the message and on the error', () => {
    const sut = mapRpcError(
      'getFixRateForAmount',
      -32600,
      'Invalid amount: minimal amount is 0.0015',
    );

    expect(sut.bound).toBe('0.0015');
    expect(sut.message).toContain('0.0015');
  });

  it('asks a rate-limited caller to wait', () => {
    expect(mapRpcError('getTransactions', -32600, 'You reached requests limit').retryAfterMs).toBe(
      1000,
    );
  });

  it('says a refusal made nothing and an internal error may have', () => {
    expect(mapRpcError('createTransaction', -32602, 'Invalid address').delivery).toBe('refused');
    expect(mapRpcError('createTransaction', -32600, 'You reached requests limit').delivery).toBe(
      'refused',
    );
    expect(mapRpcError('createTransaction', -32603, 'Internal error').delivery).toBe('unknown');
  });
});
