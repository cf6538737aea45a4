import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { ConfigError } from './config.error.js';
import { loadApiConfig, loadPollerConfig } from './app.config.js';

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });

function env(overrides: Record<string, string | undefined> = {}) {
  return {
    DATABASE_URL: 'postgres://localhost/x',
    REDIS_URL: 'redis://localhost',
    PROVIDER_URL: 'http://localhost:9/v2',
    PROVIDER_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    ADMIN_TOKEN: randomBytes(24).toString('hex'),
    CREDENTIAL_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    PUBLIC_URL: 'https://swaps.example.com',
    SMTP_URL: 'smtp://127.0.0.1:2525',
    ...overrides,
  };
}

describe('webhook settings', () => {
  it.each([
    [undefined, true],
    ['development', true],
    ['test', true],
    ['production', false],
    ['staging', false],
  ])('allow private targets by default when APP_ENV is %s: %s', (appEnv, allowed) => {
    const settings = env({ APP_ENV: appEnv });
    expect(loadApiConfig(settings).webhooks.allowPrivateTargets).toBe(allowed);
    expect(loadPollerConfig(settings).webhooks.allowPrivateTargets).toBe(allowed);
  });

  it('follows WEBHOOK_ALLOW_PRIVATE_TARGETS whatever APP_ENV says', () => {
    expect(
      loadApiConfig(env({ APP_ENV: 'production', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' })).webhooks
        .allowPrivateTargets,
    ).toBe(true);
    expect(
      loadPollerConfig(env({ APP_ENV: 'test', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' })).webhooks
        .allowPrivateTargets,
    ).toBe(false);
    expect(() => loadApiConfig(env({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'yes' }))).toThrow(ConfigError);
  });

  it('reads the retry base, tick and lease, and needs the encryption key in the poller', () => {
    const poller = loadPollerConfig(
      env({ WEBHOOK_RETRY_BASE_MS: '200', WEBHOOK_TICK_MS: '100', WEBHOOK_LEASE_MS: '3000' }),
    );
    expect(poller).toMatchObject({
      webhooks: { retryBaseMs: 200 },
      webhookTickMs: 100,
      webhookLeaseMs: 3000,
    });
    expect(loadPollerConfig(env()).webhooks.retryBaseMs).toBe(5000);
    expect(() => loadPollerConfig(env({ CREDENTIAL_ENCRYPTION_KEY: undefined }))).toThrow(
      ConfigError,
    );
  });

  it('needs the admin token in the poller, which its /metrics asks for', () => {
    const token = randomBytes(24).toString('hex');
    expect(loadPollerConfig(env({ ADMIN_TOKEN: token })).adminToken).toBe(token);
    expect(() => loadPollerConfig(env({ ADMIN_TOKEN: undefined }))).toThrow(
      new ConfigError('ADMIN_TOKEN', 'is required'),
    );
  });
});
