import { AppError } from '#app/errors';
import { bodyFingerprint, parseIdempotencyKey } from './idempotency-key.js';

describe(parseIdempotencyKey.name, () => {
  const key = '3f2c7a8e-1b4d-4c6e-9a0f-2b3c4d5e6f70';

  it('accepts a UUID v4, quoted or not, in any case', () => {
    expect(parseIdempotencyKey(key)).toBe(key);
    expect(parseIdempotencyKey(`"${key}"`)).toBe(key);
    expect(parseIdempotencyKey(key.toUpperCase())).toBe(key);
  });

  it('answers a missing header with missing_idempotency_key', () => {
    expect(() => parseIdempotencyKey(undefined)).toThrow(
      expect.objectContaining({ code: 'missing_idempotency_key' }) as AppError,
    );
  });

  it.each([['not-a-uuid'], ['3f2c7a8e-1b4d-1c6e-9a0f-2b3c4d5e6f70']])('refuses %p', (raw) => {
    expect(() => parseIdempotencyKey(raw)).toThrow(
      expect.objectContaining({ code: 'invalid_request', param: 'Idempotency-Key' }) as AppError,
    );
  });
});

describe(bodyFingerprint.name, () => {
  it('ignores key order, nested too', () => {
    expect(bodyFingerprint({ a: 1, b: { c: 2, d: 3 } })).toBe(
      bodyFingerprint({ b: { d: 3, c: 2 }, a: 1 }),
    );
  });

  it('keeps the fingerprints stored before, so a key retried across a deploy still matches', () => {
    const body = {
      to: 'eth',
      from: 'btc',
      amountFrom: '0.1',
      address: '0x52908400098527886E0F7030069857D2E4169EE7',
      partnerReferenceId: 'order-42',
      refundAddress: undefined,
    };
    expect(bodyFingerprint(body)).toBe(
      'd780670474e46f3a69c2cd3d43f9d3aa6d5f9dc55509d11042e0fc4155f64221',
    );
  });

  it('fingerprints strings with lone surrogates instead of failing the request', () => {
    expect(bodyFingerprint({ partnerReferenceId: '\ud800' })).not.toBe(
      bodyFingerprint({ partnerReferenceId: '\ud801' }),
    );
  });

  it('tells different bodies apart', () => {
    expect(bodyFingerprint({ amountFrom: '1' })).not.toBe(bodyFingerprint({ amountFrom: '1.0' }));
  });
});
