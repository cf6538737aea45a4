import { bearerToken } from './bearer.js';

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
