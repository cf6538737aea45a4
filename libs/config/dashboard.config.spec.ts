import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { ConfigError } from './config.error.js';
import { loadApiConfig } from './app.config.js';

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });

function load(overrides: Record<string, string | undefined> = {}) {
  return loadApiConfig({
    DATABASE_URL: 'postgres://localhost/x',
    REDIS_URL: 'redis://localhost',
    PROVIDER_URL: 'http://localhost:9/v2',
    PROVIDER_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    ADMIN_TOKEN: randomBytes(24).toString('hex'),
    CREDENTIAL_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    ...overrides,
  });
}

describe('mail and dashboard settings', () => {
  it('defaults to logging mail, the documented sender and each request’s own origin', () => {
    const config = load();
    expect(config.mail).toEqual({ smtpUrl: null, from: 'Swap Partners <no-reply@localhost>' });
    expect(config.dashboard.publicUrl).toBeNull();
  });

  it('takes SMTP_URL, MAIL_FROM and the origin of PUBLIC_URL', () => {
    const config = load({
      SMTP_URL: 'smtps://user:pass@mail.example.com:465',
      MAIL_FROM: 'Partners <partners@example.com>',
      PUBLIC_URL: 'https://partners.example.com/some/path?x=1',
    });
    expect(config.mail).toEqual({
      smtpUrl: 'smtps://user:pass@mail.example.com:465',
      from: 'Partners <partners@example.com>',
    });
    expect(config.dashboard.publicUrl).toBe('https://partners.example.com');
  });

  it.each([
    ['SMTP_URL', 'http://mail.example.com', 'must use smtp or smtps'],
    ['SMTP_URL', 'not a url', 'must be a URL'],
    ['MAIL_FROM', 'Partners <partners@example.com>\r\nBcc: x@y.z', 'must be an address'],
    ['MAIL_FROM', 'nobody', 'must be an address'],
    ['PUBLIC_URL', 'ftp://partners.example.com', 'must use http or https'],
  ])('refuses %s=%j naming it', (name, value, reason) => {
    expect(() => load({ [name]: value })).toThrow(ConfigError);
    expect(() => load({ [name]: value })).toThrow(`Invalid configuration: ${name} ${reason}`);
  });
});
