import { adminBearerMatches, bearerToken } from './bearer.js';

describe(bearerToken.name, () => {
  const sut = bearerToken;

  it.each(['Bearer abc:def', 'bearer abc:def', 'BEARER abc:def', 'Bearer   abc:def'])(
    'reads the token of %p',
    (header) => {
      expect(sut(header)).toBe('abc:def');
    },
  );

  it.each([
    undefined,
    '',
    'Bearer',
    'Bearer ',
    'abc:def',
    'Basic abc:def',
    'Bearer a b',
    'Bearerabc',
  ])('finds none in %p', (header) => {
    expect(sut(header)).toBeNull();
  });
});

describe(adminBearerMatches.name, () => {
  const sut = adminBearerMatches;
  const token = 'admin-token-0123456789';

  it('accepts the bearer carrying exactly the admin token', () => {
    expect(sut(`Bearer ${token}`, token)).toBe(true);
    expect(sut(`bearer ${token}`, token)).toBe(true);
  });

  it.each([
    undefined,
    '',
    'Bearer',
    'Bearer ',
    token,
    `Basic ${token}`,
    `Bearer ${token}x`,
    `Bearer ${token.slice(0, -1)}`,
    `Bearer ${token} extra`,
    `Bearer pk_live_${'a'.repeat(32)}:sk_live_${'b'.repeat(48)}`,
  ])('refuses %p', (header) => {
    expect(sut(header, token)).toBe(false);
  });
});
