import { createPrivateKey, KeyObject } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isProviderName, PROVIDER_NAMES, type ProviderName } from '#app/domain';
import { ConfigError } from './config.error.js';
import { EnvReader } from './env-reader.js';

type Env = Readonly<Record<string, string | undefined>>;

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Settings every process shares. */
export interface CommonConfig {
  appEnv: string;
  version: string;
  logLevel: LogLevel;
}

export interface DatabaseConfig {
  url: string;
  /**
   * Longest a statement may run before Postgres cancels it; a client that hears nothing a second
   * later gives up and drops the connection (`DATABASE_TIMEOUT_MS`, sized per process).
   */
  timeoutMs: number;
}

/** Defaults of `DATABASE_TIMEOUT_MS`: the api answers within seconds, the poller and CLI do bulk work. */
const DATABASE_TIMEOUT_MS = { api: 5000, poller: 15000, cli: 30000 } as const;

/**
 * `url` null means the in-process stores (embedded start only, docs/decisions.md, "Embedded
 * start").
 */
export interface RedisConfig {
  url: string | null;
  keyPrefix: string;
}

/** The Changelly-v2 JSON-RPC provider (`PROVIDER_*`). */
export interface ProviderConfig {
  url: string;
  privateKey: KeyObject;
  timeoutMs: number;
}

/** The ChangeNOW-v2-style REST provider (`CHANGENOW_*`). */
export interface ChangeNowConfig {
  /** Base URL; the API is under `<url>/v2/…`. */
  url: string;
  /** Sent as `x-changenow-api-key`; never logged. */
  apiKey: string;
  timeoutMs: number;
}

/**
 * The liquidity providers of a process (docs/decisions.md, "Configuring the providers"): each
 * one `PROVIDERS` names has its settings, the others are null.
 */
export interface ProvidersConfig {
  /** `PROVIDERS`, in the order that breaks ties. */
  providers: readonly ProviderName[];
  /** Changelly's live endpoint. */
  provider: ProviderConfig | null;
  /** Where Changelly's test-mode calls go (`TEST_PROVIDER_URL`); null: none. */
  testProvider: ProviderConfig | null;
  changenow: ChangeNowConfig | null;
  /** Where ChangeNOW's test-mode calls go (`TEST_CHANGENOW_URL`); null: none. */
  testChangenow: ChangeNowConfig | null;
}

/**
 * Node's HTTP server limits (docs/decisions.md, "HTTP server timeouts"): see `applyServerTimeouts`
 * in `#app/http`.
 */
export interface HttpServerConfig {
  /** The whole request, headers and body, must arrive within this, else 408. */
  requestTimeoutMs: number;
  /** Longer than the 60 s idle timeout of common proxies, so they close idle connections first. */
  keepAliveTimeoutMs: number;
}

/** Also what the sandbox runs with; a 64 KiB body needs far less than 30 s on any real link. */
export const DEFAULT_HTTP_SERVER: HttpServerConfig = {
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 65_000,
};

/**
 * Webhook delivery settings (docs/decisions.md, "Webhook delivery in the poller"), shared by the
 * api (URL checks) and the poller (sends).
 */
export interface WebhookConfig {
  /**
   * `WEBHOOK_ALLOW_PRIVATE_TARGETS`: private, loopback and other non-public targets and `http://`
   * in live mode. Defaults to true when `APP_ENV` is `development` or `test` (and in the
   * embedded start), false otherwise.
   */
  allowPrivateTargets: boolean;
  /** `WEBHOOK_RETRY_BASE_MS`: the first retry's delay; later ones grow about ×6 each. */
  retryBaseMs: number;
}

/** Outgoing mail (`SMTP_URL`, `MAIL_FROM`): without `smtpUrl` each mail is written to the log. */
export interface MailConfig {
  smtpUrl: string | null;
  from: string;
}

/** The partner dashboard at `/partner`. */
export interface DashboardConfig {
  /**
   * `PUBLIC_URL`: the origin partners reach the service at (links in mails, the same-origin
   * check); null: each request's own scheme and `Host`.
   */
  publicUrl: string | null;
}

export interface ApiConfig extends CommonConfig, ProvidersConfig {
  port: number;
  mail: MailConfig;
  dashboard: DashboardConfig;
  http: HttpServerConfig;
  trustProxyHops: number;
  adminToken: string;
  credentialEncryptionKey: Buffer;
  fixedRateTtlSeconds: number;
  webhooks: WebhookConfig;
  database: DatabaseConfig;
  redis: RedisConfig;
}

export interface PollerConfig extends CommonConfig, ProvidersConfig {
  pollIntervalMs: number;
  /** `TEST_POLL_INTERVAL_MS`: test swaps move fast, so partners see their lifecycle in seconds. */
  testPollIntervalMs: number;
  healthPort: number;
  /** `ADMIN_TOKEN`: the bearer its `/metrics` asks for, as the api's does. */
  adminToken: string;
  /** How often the poller looks for due swaps; shorter than the interval so lag stays small. */
  tickMs: number;
  /** The same for test swaps: a quarter of their interval, never slower than `tickMs`. */
  testTickMs: number;
  /** How long a claimed swap stays leased; an expired lease (a dead poller) is reclaimed. */
  leaseMs: number;
  /** Swaps claimed per batch; the provider is asked for them 10 ids per call. */
  batchSize: number;
  /** Decrypts webhook endpoint secrets, which the api encrypted (`CREDENTIAL_ENCRYPTION_KEY`). */
  credentialEncryptionKey: Buffer;
  webhooks: WebhookConfig;
  /** `WEBHOOK_TICK_MS`: how often the poller looks for due webhook deliveries. */
  webhookTickMs: number;
  /**
   * `WEBHOOK_LEASE_MS`: how long a claimed delivery stays leased; longer than one send (10 s)
   * and its write-back, so only a dead poller's deliveries are taken over.
   */
  webhookLeaseMs: number;
  /** The mail server the poller sends the outbox's mail through (`SMTP_URL`, `MAIL_FROM`). */
  mail: MailConfig;
  /** `MAIL_TICK_MS`: how often the poller looks for due mail. */
  mailTickMs: number;
  /** `MAIL_RETRY_BASE_MS`: the first retry of a mail the server refused; later ones double. */
  mailRetryBaseMs: number;
  database: DatabaseConfig;
  redis: RedisConfig;
}

export interface SandboxConfig extends CommonConfig {
  port: number;
  publicKeyPem: string;
  /** The only key its ChangeNOW-style API accepts (`CHANGENOW_API_KEY`); null: it accepts none. */
  changenowApiKey: string | null;
  stepMs: number;
  seed: number;
}

export interface LoadOptions {
  /** The embedded start may run without Redis; production processes may not. */
  allowInProcessStores?: boolean;
}

const POSTGRES = ['postgres', 'postgresql'];
const REDIS = ['redis', 'rediss'];
const HTTP = ['http', 'https'];

function readVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) {
      const pkg = JSON.parse(readFileSync(candidate, 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'swap-partners-api' && pkg.version) {
        return pkg.version;
      }
    }
    const parent = dirname(dir);
    if (parent === dir) {
      return '0.0.0';
    }
    dir = parent;
  }
}

function common(reader: EnvReader): CommonConfig {
  return {
    appEnv: reader.optional('APP_ENV') ?? 'development',
    version: readVersion(),
    logLevel: reader.oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
  };
}

/**
 * Accepts a PEM (PKCS#8 or PKCS#1) or a hex-encoded PKCS#8 DER private key (docs/decisions.md, "The
 * provider's wire protocol"). Literal `\n` sequences are accepted so the PEM can live in a one-line
 * env value.
 */
export function parsePrivateKey(raw: string, name = 'PROVIDER_PRIVATE_KEY'): KeyObject {
  let key: KeyObject;
  try {
    key = /^[0-9a-fA-F]+$/.test(raw)
      ? createPrivateKey({ key: Buffer.from(raw, 'hex'), format: 'der', type: 'pkcs8' })
      : createPrivateKey(raw.replace(/\\n/g, '\n'));
  } catch {
    throw new ConfigError(name, 'must be an RSA private key (PEM or PKCS#8 DER hex)');
  }
  if (key.asymmetricKeyType !== 'rsa') {
    throw new ConfigError(name, 'must be an RSA key');
  }
  return key;
}

const PROVIDER_TIMEOUT_MS = { fallback: 10000, min: 100, max: 120000 };

function provider(reader: EnvReader): ProviderConfig {
  return {
    url: reader.url('PROVIDER_URL', HTTP),
    privateKey: parsePrivateKey(reader.required('PROVIDER_PRIVATE_KEY')),
    timeoutMs: providerTimeoutMs(reader),
  };
}

function providerTimeoutMs(reader: EnvReader): number {
  const { fallback, min, max } = PROVIDER_TIMEOUT_MS;
  return reader.integer('PROVIDER_TIMEOUT_MS', fallback, min, max);
}

/** `PROVIDERS`: names from `PROVIDER_NAMES`, comma-separated, each once, in the given order. */
function providerNames(reader: EnvReader): ProviderName[] {
  const names = (reader.optional('PROVIDERS') ?? 'changelly').split(',').map((n) => n.trim());
  if (names.some((name) => !isProviderName(name)) || new Set(names).size !== names.length) {
    throw new ConfigError(
      'PROVIDERS',
      `must name providers from ${PROVIDER_NAMES.join(', ')}, comma-separated, each once`,
    );
  }
  return names as ProviderName[];
}

/** A key that can travel in a header as it is: visible ASCII, long enough to be a real one. */
const API_KEY = /^[\x21-\x7e]{16,256}$/;

function apiKey(reader: EnvReader, name: string, value = reader.required(name)): string {
  if (!API_KEY.test(value)) {
    throw new ConfigError(name, 'must be an API key: 16 to 256 visible ASCII characters');
  }
  return value;
}

/**
 * ChangeNOW's settings. Its timeout is its own (`CHANGENOW_TIMEOUT_MS`), by default the one every
 * provider call has (`PROVIDER_TIMEOUT_MS`).
 */
function changenow(reader: EnvReader): ChangeNowConfig {
  const { min, max } = PROVIDER_TIMEOUT_MS;
  return {
    url: reader.url('CHANGENOW_URL', HTTP),
    apiKey: apiKey(reader, 'CHANGENOW_API_KEY'),
    timeoutMs: reader.integer('CHANGENOW_TIMEOUT_MS', providerTimeoutMs(reader), min, max),
  };
}

/** ChangeNOW's test-mode endpoint, called with the live key unless it has its own. */
function testChangenow(reader: EnvReader, live: ChangeNowConfig): ChangeNowConfig | null {
  const url = reader.optionalUrl('TEST_CHANGENOW_URL', HTTP);
  if (!url) {
    return null;
  }
  const key = reader.optional('TEST_CHANGENOW_API_KEY');
  return {
    url,
    apiKey: key === undefined ? live.apiKey : apiKey(reader, 'TEST_CHANGENOW_API_KEY', key),
    timeoutMs: live.timeoutMs,
  };
}

/**
 * The settings of each provider `PROVIDERS` names, required for those only; a provider it does
 * not name is not configured, whatever its variables say.
 */
function providers(reader: EnvReader): ProvidersConfig {
  const names = providerNames(reader);
  const live = names.includes('changelly') ? provider(reader) : null;
  const liveChangenow = names.includes('changenow') ? changenow(reader) : null;
  return {
    providers: names,
    provider: live,
    testProvider: live ? testProvider(reader, live) : null,
    changenow: liveChangenow,
    testChangenow: liveChangenow ? testChangenow(reader, liveChangenow) : null,
  };
}

/**
 * The test-mode provider (docs/decisions.md, "Test mode"): signed with the live key unless it has
 * its own.
 */
function testProvider(reader: EnvReader, live: ProviderConfig): ProviderConfig | null {
  const url = reader.optionalUrl('TEST_PROVIDER_URL', HTTP);
  if (!url) {
    return null;
  }
  const key = reader.optional('TEST_PROVIDER_PRIVATE_KEY');
  return {
    url,
    privateKey: key ? parsePrivateKey(key, 'TEST_PROVIDER_PRIVATE_KEY') : live.privateKey,
    timeoutMs: live.timeoutMs,
  };
}

function database(reader: EnvReader, defaultTimeoutMs: number): DatabaseConfig {
  return {
    url: reader.url('DATABASE_URL', POSTGRES),
    timeoutMs: reader.integer('DATABASE_TIMEOUT_MS', defaultTimeoutMs, 100, 600000),
  };
}

function redis(reader: EnvReader, options: LoadOptions): RedisConfig {
  const url = options.allowInProcessStores
    ? reader.optionalUrl('REDIS_URL', REDIS)
    : reader.url('REDIS_URL', REDIS);
  return { url: url ?? null, keyPrefix: reader.optional('REDIS_KEY_PREFIX') ?? 'swap:' };
}

const PRIVATE_TARGET_ENVS = ['development', 'test'];

function webhooks(reader: EnvReader, appEnv: string): WebhookConfig {
  const allow = reader.oneOf(
    'WEBHOOK_ALLOW_PRIVATE_TARGETS',
    ['true', 'false'],
    PRIVATE_TARGET_ENVS.includes(appEnv) ? 'true' : 'false',
  );
  return {
    allowPrivateTargets: allow === 'true',
    retryBaseMs: reader.integer('WEBHOOK_RETRY_BASE_MS', 5000, 10, 3_600_000),
  };
}

const DEFAULT_MAIL_FROM = 'Swap Partners <no-reply@localhost>';
/** A display name and an address in angle brackets, or a bare address; no line breaks. */
const MAIL_FROM_PATTERN = /^(?:[^<>\r\n]{0,100}<[^<>@\s]+@[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+)$/;

function mail(reader: EnvReader): MailConfig {
  const from = reader.optional('MAIL_FROM') ?? DEFAULT_MAIL_FROM;
  if (!MAIL_FROM_PATTERN.test(from)) {
    throw new ConfigError('MAIL_FROM', 'must be an address, optionally with a name: Name <a@b.c>');
  }
  return { smtpUrl: reader.optionalUrl('SMTP_URL', ['smtp', 'smtps']) ?? null, from };
}

/** Only the origin of `PUBLIC_URL` counts: a path or query in it would make no link better. */
function dashboard(reader: EnvReader): DashboardConfig {
  const url = reader.optionalUrl('PUBLIC_URL', HTTP);
  return { publicUrl: url === undefined ? null : new URL(url).origin };
}

/**
 * In production a missing `PUBLIC_URL` would let a request's `Host` choose the links mailed to
 * people (a poisoned reset link), and a missing `SMTP_URL` would write every reset and invitation
 * token to the log: the process refuses to start, naming each one missing (fail closed).
 */
function requireInProduction(reader: EnvReader, appEnv: string, names: readonly string[]): void {
  if (appEnv !== 'production') {
    return;
  }
  const missing = names.filter((name) => reader.optional(name) === undefined);
  if (missing.length > 0) {
    throw new ConfigError(
      missing.join(' and '),
      `${missing.length > 1 ? 'are' : 'is'} required when APP_ENV is production`,
    );
  }
}

export function loadApiConfig(env: Env, options: LoadOptions = {}): ApiConfig {
  const reader = new EnvReader(env);
  const upstream = providers(reader);
  const shared = common(reader);
  requireInProduction(reader, shared.appEnv, ['PUBLIC_URL', 'SMTP_URL']);
  return {
    ...shared,
    mail: mail(reader),
    dashboard: dashboard(reader),
    webhooks: webhooks(reader, shared.appEnv),
    database: database(reader, DATABASE_TIMEOUT_MS.api),
    redis: redis(reader, options),
    ...upstream,
    port: reader.integer('PORT', 3000, 0, 65535),
    http: {
      requestTimeoutMs: reader.integer(
        'HTTP_REQUEST_TIMEOUT_MS',
        DEFAULT_HTTP_SERVER.requestTimeoutMs,
        1000,
        300_000,
      ),
      keepAliveTimeoutMs: reader.integer(
        'HTTP_KEEP_ALIVE_TIMEOUT_MS',
        DEFAULT_HTTP_SERVER.keepAliveTimeoutMs,
        1000,
        600_000,
      ),
    },
    trustProxyHops: reader.integer('TRUST_PROXY_HOPS', 0, 0, 10),
    adminToken: reader.secret('ADMIN_TOKEN', 32),
    credentialEncryptionKey: reader.base64Key('CREDENTIAL_ENCRYPTION_KEY', 32),
    fixedRateTtlSeconds: reader.integer('FIXED_RATE_TTL_SECONDS', 60, 1, 3600),
  };
}

/**
 * Defaults follow the interval: a tick every quarter interval (at most 5 s), a lease of two
 * intervals (at least 10 s) so a slow batch keeps its swaps.
 */
export function loadPollerConfig(env: Env, options: LoadOptions = {}): PollerConfig {
  const reader = new EnvReader(env);
  const pollIntervalMs = reader.integer('POLL_INTERVAL_MS', 30000, 100, 3600000);
  const testPollIntervalMs = reader.integer('TEST_POLL_INTERVAL_MS', 2000, 100, 3600000);
  const tickMs = reader.integer(
    'POLLER_TICK_MS',
    Math.min(5000, Math.max(50, Math.floor(pollIntervalMs / 4))),
    10,
    60000,
  );
  const upstream = providers(reader);
  const shared = common(reader);
  requireInProduction(reader, shared.appEnv, ['SMTP_URL']);
  return {
    ...shared,
    credentialEncryptionKey: reader.base64Key('CREDENTIAL_ENCRYPTION_KEY', 32),
    mail: mail(reader),
    mailTickMs: reader.integer('MAIL_TICK_MS', 1000, 10, 60000),
    mailRetryBaseMs: reader.integer('MAIL_RETRY_BASE_MS', 5000, 10, 3_600_000),
    webhooks: webhooks(reader, shared.appEnv),
    webhookTickMs: reader.integer('WEBHOOK_TICK_MS', 250, 10, 60000),
    webhookLeaseMs: reader.integer('WEBHOOK_LEASE_MS', 30000, 1000, 3600000),
    database: database(reader, DATABASE_TIMEOUT_MS.poller),
    redis: redis(reader, options),
    ...upstream,
    pollIntervalMs,
    testPollIntervalMs,
    healthPort: reader.integer('POLLER_HEALTH_PORT', 3001, 0, 65535),
    adminToken: reader.secret('ADMIN_TOKEN', 32),
    tickMs,
    testTickMs: Math.min(tickMs, Math.max(50, Math.floor(testPollIntervalMs / 4))),
    leaseMs: reader.integer('POLLER_LEASE_MS', Math.max(10000, 2 * pollIntervalMs), 500, 3600000),
    batchSize: reader.integer('POLLER_BATCH_SIZE', 100, 1, 1000),
  };
}

export function loadSandboxConfig(env: Env): SandboxConfig {
  const reader = new EnvReader(env);
  const publicKeyPem = reader.required('SANDBOX_PUBLIC_KEY').replace(/\\n/g, '\n');
  if (!publicKeyPem.includes('PUBLIC KEY-----')) {
    throw new ConfigError('SANDBOX_PUBLIC_KEY', 'must be a PEM public key (SPKI or PKCS#1)');
  }
  return {
    ...common(reader),
    port: reader.integer('SANDBOX_PORT', 3100, 0, 65535),
    publicKeyPem,
    changenowApiKey:
      reader.optional('CHANGENOW_API_KEY') === undefined
        ? null
        : apiKey(reader, 'CHANGENOW_API_KEY'),
    stepMs: reader.integer('SANDBOX_STEP_MS', 5000, 10, 3600000),
    seed: reader.integer('SANDBOX_SEED', 42, 0, 2 ** 31),
  };
}

/** The TypeORM CLI's settings: it only migrates, so no statement timeout applies. */
export function loadDatabaseConfig(env: Env): Pick<DatabaseConfig, 'url'> {
  return { url: new EnvReader(env).url('DATABASE_URL', POSTGRES) };
}

/** Settings of the embedded start only (`npm start`). */
export interface EmbeddedConfig {
  dataDir: string;
  postgresPort: number;
  /** `HOST`: the interface the api and the poller's probes listen on; loopback unless set. */
  host: string;
  /** Values the operator set explicitly; everything else is filled in by the embedded start. */
  databaseUrl: string | undefined;
  providerUrl: string | undefined;
  testProviderUrl: string | undefined;
  changenowUrl: string | undefined;
  testChangenowUrl: string | undefined;
}

export function loadEmbeddedConfig(env: Env): EmbeddedConfig {
  const reader = new EnvReader(env);
  return {
    dataDir: reader.optional('DATA_DIR') ?? '.data',
    postgresPort: reader.integer('EMBEDDED_POSTGRES_PORT', 54329, 1, 65535),
    // The banner prints the admin token and a live credential: reachable from this machine
    // only, unless the operator says otherwise.
    host: reader.ipAddress('HOST', '127.0.0.1'),
    databaseUrl: reader.optionalUrl('DATABASE_URL', POSTGRES),
    providerUrl: reader.optionalUrl('PROVIDER_URL', HTTP),
    testProviderUrl: reader.optionalUrl('TEST_PROVIDER_URL', HTTP),
    changenowUrl: reader.optionalUrl('CHANGENOW_URL', HTTP),
    testChangenowUrl: reader.optionalUrl('TEST_CHANGENOW_URL', HTTP),
  };
}

/**
 * Settings of the admin CLI (`npm run admin`): no HTTP server and no provider's endpoint, only
 * which providers the deployment routes across (`PROVIDERS`, as the api reads it).
 */
export interface CliConfig extends CommonConfig {
  providers: readonly ProviderName[];
  /** Invitation links start here: `PUBLIC_URL`, else `http://localhost:3000`. */
  publicUrl: string;
  database: DatabaseConfig;
  redis: RedisConfig;
  credentialEncryptionKey: Buffer;
}

/**
 * Without `REDIS_URL` a revocation from the CLI is not fanned out; replicas still drop the
 * credential within their 2 s cache lifetime. Logs go to stderr and default to `warn` so stdout
 * stays pure JSON.
 */
export function loadCliConfig(env: Env): CliConfig {
  const reader = new EnvReader(env);
  return {
    ...common(reader),
    logLevel: reader.oneOf('LOG_LEVEL', LOG_LEVELS, 'warn'),
    providers: providerNames(reader),
    publicUrl: dashboard(reader).publicUrl ?? 'http://localhost:3000',
    database: database(reader, DATABASE_TIMEOUT_MS.cli),
    redis: redis(reader, { allowInProcessStores: true }),
    credentialEncryptionKey: reader.base64Key('CREDENTIAL_ENCRYPTION_KEY', 32),
  };
}
