import { randomBytes } from 'node:crypto';
import { ConfigError } from './config.error.js';
import { EnvReader } from './env-reader.js';

describe(EnvReader.name, () => {
  describe('secret', () => {
    const read = (value: string | undefined) => new EnvReader({ TOKEN: value }).secret('TOKEN', 32);

    it.each([
      ['hex from openssl rand -hex 32', randomBytes(32).toString('hex')],
      ['base64 from openssl rand -base64 32', randomBytes(32).toString('base64')],
      ['32 random digits', Array.from(randomBytes(32), (b) => String(b % 10)).join('')],
      ['a long passphrase', 'correct-horse-battery-staple-orbit-lantern'],
      ['words around a random part', `admin-token-${randomBytes(12).toString('hex')}`],
    ])('accepts %s', (_name, value) => {
      expect(read(value)).toBe(value);
    });

    it.each([
      ['missing', undefined, 'is required'],
      ['blank', '   ', 'is required'],
      ['31 characters', randomBytes(16).toString('hex').slice(0, 31), 'must be at least 32'],
      ['the old compose default', 'change-me-admin-token', 'must be at least 32 characters'],
    ])('refuses a value %s', (_name, value, reason) => {
      expect(() => read(value)).toThrow(ConfigError);
      expect(() => read(value)).toThrow(`Invalid configuration: TOKEN ${reason}`);
    });

    it.each([
      'change-me-admin-token-change-me-now',
      'CHANGE_ME_CHANGE_ME_CHANGE_ME_CHANGE_ME',
      'changeme-please-0123456789abcdef0123',
      'replace-me-with-32-random-characters',
      'example-admin-token-example-admin-token',
      'your-admin-token-placeholder-goes-here',
      'passwordpasswordpasswordpassword',
      'admin-admin-admin-admin-admin-admin',
      'secret-token-secret-token-secret-token',
      'test-admin-token-0123456789012345678',
      'a'.repeat(48),
      '0'.repeat(32),
      'abababababababababababababababab',
      '12341234123412341234123412341234',
    ])('refuses the placeholder %p', (value) => {
      expect(() => read(value)).toThrow(
        'Invalid configuration: TOKEN is a placeholder; use a random value (openssl rand -hex 32)',
      );
    });
  });
});
