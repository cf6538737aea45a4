import { Inject } from '@nestjs/common';
import type { ProviderName } from '#app/domain';
import type {
  ApiConfig,
  DashboardConfig,
  DatabaseConfig,
  MailConfig,
  PollerConfig,
  ProvidersConfig,
  RedisConfig,
  WebhookConfig,
} from './app.config.js';

declare const configType: unique symbol;

/**
 * The injection token of one configuration namespace: a symbol that carries its value's type, so
 * `@InjectConfig(TOKEN)` and a factory's `inject` name one namespace, and its type, in one place.
 */
export type ConfigToken<T> = symbol & { readonly [configType]?: T };

/** The value a namespace's token stands for. */
export type ConfigOf<Token> = Token extends ConfigToken<infer T> ? T : never;

function configToken<T>(name: string): ConfigToken<T> {
  return Symbol(name);
}

/** Injects one namespace of the process's configuration: `@InjectConfig(DATABASE_CONFIG)`. */
export function InjectConfig<T>(token: ConfigToken<T>): PropertyDecorator & ParameterDecorator {
  return Inject(token);
}

/** `CREDENTIAL_ENCRYPTION_KEY`: seals partners' secrets; other keys are derived from it. */
export interface CredentialsConfig {
  encryptionKey: Buffer;
}

/** The providers routed across (`PROVIDERS`), in the order that breaks ties. */
export interface RoutingConfig {
  providers: readonly ProviderName[];
}

/**
 * Whose calls this process makes upstream: `partner` calls wait briefly for the shared budget,
 * `background` ones (the poller) take only slots partners leave free.
 */
export interface UpstreamConfig {
  priority: 'partner' | 'background';
}

/** The operator API's bearer token (`ADMIN_TOKEN`). */
export interface AdminConfig {
  token: string;
}

export interface QuotesConfig {
  /**
   * Validity of a fixed `rateId` (`FIXED_RATE_TTL_SECONDS`, docs/decisions.md, "Fixed rate ids").
   */
  fixedRateTtlSeconds: number;
}

/** What `/health` reports about the running build. */
export interface HealthConfig {
  version: string;
  appEnv: string;
}

/** Cadence and lease of the poller. */
export interface PollingConfig {
  /** Every non-terminal live swap, `hold` included, is refreshed once per interval [30 s]. */
  pollIntervalMs: number;
  /**
   * The same for test swaps [2 s]: partners see a test swap's lifecycle in seconds
   * (docs/decisions.md, "Test mode").
   */
  testPollIntervalMs: number;
  leaseMs: number;
  /** Swaps claimed per batch when they are asked for by id. */
  batchSize: number;
}

/** The poller's webhook sends; the target rules and retries follow `WebhookConfig`. */
export interface WebhookDeliveryConfig {
  /** How long a claimed delivery stays leased: longer than one send (10 s) and its write-back. */
  leaseMs: number;
  /** Deliveries claimed and sent at once per round. */
  batchSize: number;
}

/** The poller's mail sends. */
export interface MailDeliveryConfig {
  /** `MAIL_RETRY_BASE_MS`: the first retry's delay; each later one doubles, up to `MAX_RETRY_MS`. */
  retryBaseMs: number;
  /** How long a claimed mail stays leased: longer than one send and its write-back. */
  leaseMs: number;
  /** Mails claimed per round. */
  batchSize: number;
}

/** The poller's loops: how often each looks for due work, never overlapping itself. */
export interface TicksConfig {
  /** `POLLER_TICK_MS`: how often the poller looks for due live swaps. */
  pollMs: number;
  /** The same for test swaps, in step with their shorter interval. */
  testPollMs: number;
  /** `WEBHOOK_TICK_MS`: how often an idle poller looks for due deliveries. */
  webhookMs: number;
  /** `MAIL_TICK_MS`: how often an idle poller looks for due mail. */
  mailMs: number;
}

export const DATABASE_CONFIG = configToken<DatabaseConfig>('DATABASE_CONFIG');
export const REDIS_CONFIG = configToken<RedisConfig>('REDIS_CONFIG');
export const CREDENTIALS_CONFIG = configToken<CredentialsConfig>('CREDENTIALS_CONFIG');
export const ROUTING_CONFIG = configToken<RoutingConfig>('ROUTING_CONFIG');
export const PROVIDERS_CONFIG = configToken<ProvidersConfig>('PROVIDERS_CONFIG');
export const UPSTREAM_CONFIG = configToken<UpstreamConfig>('UPSTREAM_CONFIG');
export const WEBHOOK_CONFIG = configToken<WebhookConfig>('WEBHOOK_CONFIG');
export const WEBHOOK_DELIVERY_CONFIG =
  configToken<WebhookDeliveryConfig>('WEBHOOK_DELIVERY_CONFIG');
export const MAIL_CONFIG = configToken<MailConfig>('MAIL_CONFIG');
export const MAIL_DELIVERY_CONFIG = configToken<MailDeliveryConfig>('MAIL_DELIVERY_CONFIG');
export const QUOTES_CONFIG = configToken<QuotesConfig>('QUOTES_CONFIG');
export const POLLING_CONFIG = configToken<PollingConfig>('POLLING_CONFIG');
export const TICKS_CONFIG = configToken<TicksConfig>('TICKS_CONFIG');
export const HEALTH_CONFIG = configToken<HealthConfig>('HEALTH_CONFIG');
export const ADMIN_CONFIG = configToken<AdminConfig>('ADMIN_CONFIG');
export const DASHBOARD_CONFIG = configToken<DashboardConfig>('DASHBOARD_CONFIG');

/** Every namespace by the name a process's configuration gives it. */
export const CONFIG_NAMESPACES = {
  database: DATABASE_CONFIG,
  redis: REDIS_CONFIG,
  credentials: CREDENTIALS_CONFIG,
  routing: ROUTING_CONFIG,
  providers: PROVIDERS_CONFIG,
  upstream: UPSTREAM_CONFIG,
  webhooks: WEBHOOK_CONFIG,
  webhookDelivery: WEBHOOK_DELIVERY_CONFIG,
  mail: MAIL_CONFIG,
  mailDelivery: MAIL_DELIVERY_CONFIG,
  quotes: QUOTES_CONFIG,
  polling: POLLING_CONFIG,
  ticks: TICKS_CONFIG,
  health: HEALTH_CONFIG,
  admin: ADMIN_CONFIG,
  dashboard: DASHBOARD_CONFIG,
} as const;

/**
 * A process's configuration, by namespace: each app root builds it from its parsed config and
 * leaves out the namespaces it has no use for.
 */
export type ConfigNamespaces = {
  [Name in keyof typeof CONFIG_NAMESPACES]?: ConfigOf<(typeof CONFIG_NAMESPACES)[Name]>;
};

/**
 * The namespaces the api and the poller both build from their parsed config: database, Redis,
 * the credential key, the providers and their order, the webhook rules and the build `/health`
 * reports.
 */
export function sharedNamespaces(config: ApiConfig | PollerConfig): ConfigNamespaces {
  const { providers, provider, testProvider, changenow, testChangenow } = config;
  return {
    database: config.database,
    redis: config.redis,
    credentials: { encryptionKey: config.credentialEncryptionKey },
    routing: { providers },
    providers: { providers, provider, testProvider, changenow, testChangenow },
    webhooks: config.webhooks,
    health: { version: config.version, appEnv: config.appEnv },
  };
}
