import { randomBytes } from 'node:crypto';
import { StatusTokens } from './status-token.js';

describe(StatusTokens.name, () => {
  const sut = new StatusTokens(randomBytes(32));

  it('gives each swap its own stable token of 256 bits', () => {
    const token = sut.tokenFor('9f86d081884c7d65');

    expect(sut.tokenFor('9f86d081884c7d65')).toBe(token);
    expect(sut.tokenFor('9f86d081884c7d66')).not.toBe(token);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(new StatusTokens(randomBytes(32)).tokenFor('9f86d081884c7d65')).not.toBe(token);
  });

  it('matches a token only against the hash of that token', () => {
    const token = sut.tokenFor('9f86d081884c7d65');
    const hash = StatusTokens.hash(token);

    expect(StatusTokens.matches(token, hash)).toBe(true);
    expect(StatusTokens.matches(sut.tokenFor('other'), hash)).toBe(false);
    expect(StatusTokens.matches(token, null)).toBe(false);
    for (const presented of [undefined, '', 42, ['x'], `${token}x`, token.slice(1)]) {
      expect(StatusTokens.matches(presented, hash)).toBe(false);
    }
  });
});
