import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { ConfigError } from './config.error.js';
import { loadApiConfig, loadPollerConfig, loadSandboxConfig } from './app.config.js';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const CHANGENOW_KEY = randomBytes(32).toString('hex');

function env(overrides: Record<string, string | undefined> = {}) {
  return {
    DATABASE_URL: 'postgres://localhost/x',
    REDIS_URL: 'redis://localhost',
    PROVIDER_URL: 'http://localhost:9/v2',
    PROVIDER_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    ADMIN_TOKEN: randomBytes(24).toString('hex'),
    CREDENTIAL_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    ...overrides,
  };
}

const both = {
  PROVIDERS: 'changenow,changelly',
  CHANGENOW_URL: 'http://localhost:9/changenow',
  CHANGENOW_API_KEY: CHANGENOW_KEY,
};

/** The one line start-up prints for `load`, or null when it loads. */
function refusal(load: () => unknown): string | null {
  try {
    load();
    return null;
  } catch (error: unknown) {
    if (error instanceof ConfigError) {
      return error.message;
    }
    throw error;
  }
}

describe('provider settings', () => {
  it('route to Changelly alone by default, with no ChangeNOW settings', () => {
    const config = loadApiConfig(env());

    expect(config.providers).toEqual(['changelly']);
    expect(config.provider).toMatchObject({ url: 'http://localhost:9/v2', timeoutMs: 10000 });
    expect(config.changenow).toBeNull();
    expect(config.testChangenow).toBeNull();
  });

  it('keep the order PROVIDERS gives, which breaks ties', () => {
    expect(loadApiConfig(env(both)).providers).toEqual(['changenow', 'changelly']);
    expect(
      loadPollerConfig(env({ ...both, PROVIDERS: ' changelly , changenow ' })).providers,
    ).toEqual(['changelly', 'changenow']);
  });

  it.each(['changelly,changelly', 'changelly,kraken', 'changelly,', 'Changelly'])(
    'refuse PROVIDERS=%s in one line naming the variable',
    (providers) => {
      expect(refusal(() => loadApiConfig(env({ ...both, PROVIDERS: providers })))).toBe(
        'Invalid configuration: PROVIDERS must name providers from changelly, changenow, comma-separated, each once',
      );
    },
  );

  it.each(['CHANGENOW_URL', 'CHANGENOW_API_KEY'])(
    'require %s when PROVIDERS names changenow',
    (variable) => {
      const settings = env({ ...both, [variable]: undefined });

      expect(refusal(() => loadApiConfig(settings))).toBe(
        `Invalid configuration: ${variable} is required`,
      );
      expect(refusal(() => loadPollerConfig(settings))).toBe(
        `Invalid configuration: ${variable} is required`,
      );
    },
  );

  it('refuse an API key that cannot be one', () => {
    expect(refusal(() => loadApiConfig(env({ ...both, CHANGENOW_API_KEY: 'short' })))).toBe(
      'Invalid configuration: CHANGENOW_API_KEY must be an API key: 16 to 256 visible ASCII characters',
    );
  });

  it("need Changelly's settings only when PROVIDERS names changelly", () => {
    const settings = env({
      ...both,
      PROVIDERS: 'changenow',
      PROVIDER_URL: undefined,
      PROVIDER_PRIVATE_KEY: undefined,
    });

    const config = loadApiConfig(settings);

    expect(config.provider).toBeNull();
    expect(config.testProvider).toBeNull();
    expect(config.changenow).toEqual({
      url: 'http://localhost:9/changenow',
      apiKey: CHANGENOW_KEY,
      timeoutMs: 10000,
    });
    expect(refusal(() => loadApiConfig(env({ PROVIDER_URL: undefined })))).toBe(
      'Invalid configuration: PROVIDER_URL is required',
    );
  });

  it("give ChangeNOW its own timeout, by default every provider call's", () => {
    expect(loadApiConfig(env({ ...both, PROVIDER_TIMEOUT_MS: '4000' })).changenow?.timeoutMs).toBe(
      4000,
    );
    expect(
      loadApiConfig(env({ ...both, PROVIDER_TIMEOUT_MS: '4000', CHANGENOW_TIMEOUT_MS: '2500' }))
        .changenow?.timeoutMs,
    ).toBe(2500);
    expect(refusal(() => loadApiConfig(env({ ...both, CHANGENOW_TIMEOUT_MS: '50' })))).toBe(
      'Invalid configuration: CHANGENOW_TIMEOUT_MS must be an integer from 100 to 120000',
    );
  });

  it('send test mode to TEST_CHANGENOW_URL with the live key unless it has its own', () => {
    const url = 'http://localhost:9/sandbox-changenow';
    const ownKey = randomBytes(20).toString('hex');

    expect(loadApiConfig(env({ ...both, TEST_CHANGENOW_URL: url })).testChangenow).toEqual({
      url,
      apiKey: CHANGENOW_KEY,
      timeoutMs: 10000,
    });
    expect(
      loadPollerConfig(env({ ...both, TEST_CHANGENOW_URL: url, TEST_CHANGENOW_API_KEY: ownKey }))
        .testChangenow?.apiKey,
    ).toBe(ownKey);
    expect(refusal(() => loadApiConfig(env({ ...both, TEST_CHANGENOW_URL: 'ftp://x' })))).toBe(
      'Invalid configuration: TEST_CHANGENOW_URL must use http or https',
    );
  });
});

describe('sandbox settings', () => {
  const sandboxEnv = (overrides: Record<string, string | undefined> = {}) => ({
    SANDBOX_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    ...overrides,
  });

  it('accept only the configured ChangeNOW key, and none when it has none', () => {
    expect(
      loadSandboxConfig(sandboxEnv({ CHANGENOW_API_KEY: CHANGENOW_KEY })).changenowApiKey,
    ).toBe(CHANGENOW_KEY);
    expect(loadSandboxConfig(sandboxEnv()).changenowApiKey).toBeNull();
    expect(refusal(() => loadSandboxConfig(sandboxEnv({ CHANGENOW_API_KEY: 'a b' })))).toContain(
      'CHANGENOW_API_KEY',
    );
  });
});
