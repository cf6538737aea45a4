import { AppError, ErrorCode } from '#app/errors';
import { assertOrganizationId, assertPublicKey } from './partner-ids.js';

function codeOf(action: () => unknown): ErrorCode | null {
  try {
    action();
    return null;
  } catch (error: unknown) {
    return error instanceof AppError ? error.code : null;
  }
}

describe(assertOrganizationId.name, () => {
  const sut = assertOrganizationId;

  it('accepts a UUID and lowercases it', () => {
    expect(sut('0B1C2D3E-4F50-4a6b-8c7d-9e0f1a2b3c4d')).toBe(
      '0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d',
    );
  });

  it.each(['', 'abc', '123', '0b1c2d3e4f504a6b8c7d9e0f1a2b3c4d', "x' OR 1=1 --"])(
    'answers not_found for %p',
    (id) => {
      expect(codeOf(() => sut(id))).toBe(ErrorCode.NotFound);
    },
  );
});

describe(assertPublicKey.name, () => {
  const sut = assertPublicKey;

  it('accepts a public key in the documented format', () => {
    const key = `pk_live_${'ab'.repeat(16)}`;
    expect(sut(key)).toBe(key);
  });

  it.each(['pk_live_short', `sk_live_${'a'.repeat(48)}`, `pk_live_${'A'.repeat(32)}`])(
    'answers not_found for %p',
    (key) => {
      expect(codeOf(() => sut(key))).toBe(ErrorCode.NotFound);
    },
  );
});
