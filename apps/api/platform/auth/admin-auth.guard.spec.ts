import { adminBearerMatches } from './admin-auth.guard.js';

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
