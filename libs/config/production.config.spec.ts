import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { ConfigError } from './config.error.js';
import { loadApiConfig } from './app.config.js';

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });

function env(overrides: Record<string, string | undefined> = {}) {
  return {
    DATABASE_URL: 'postgres://localhost/x',
    REDIS_URL: 'redis://localhost',
    PROVIDER_URL: 'http://localhost:9/v2',
    PROVIDER_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    ADMIN_TOKEN: randomBytes(24).toString('hex'),
    CREDENTIAL_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    APP_ENV: 'production',
    PUBLIC_URL: 'https://swaps.example.com',
    SMTP_URL: 'smtp://mail.example.com:587',
    ...overrides,
  };
}

function refusal(overrides: Record<string, string | undefined>): string {
  try {
    loadApiConfig(env(overrides));
  } catch (error: unknown) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error('the configuration was accepted');
}

describe('production settings', () => {
  it('refuses to start without PUBLIC_URL or SMTP_URL, naming each one missing', () => {
    expect(refusal({ PUBLIC_URL: undefined })).toBe(
      'Invalid configuration: PUBLIC_URL is required when APP_ENV is production',
    );
    expect(refusal({ SMTP_URL: ' ' })).toBe(
      'Invalid configuration: SMTP_URL is required when APP_ENV is production',
    );
    expect(refusal({ PUBLIC_URL: undefined, SMTP_URL: undefined })).toBe(
      'Invalid configuration: PUBLIC_URL and SMTP_URL are required when APP_ENV is production',
    );
  });

  it('starts with both, and elsewhere without them', () => {
    expect(loadApiConfig(env()).dashboard.publicUrl).toBe('https://swaps.example.com');
    const development = loadApiConfig(
      env({ APP_ENV: 'staging', PUBLIC_URL: undefined, SMTP_URL: undefined }),
    );
    expect(development.dashboard.publicUrl).toBeNull();
    expect(development.mail.smtpUrl).toBeNull();
  });
});
