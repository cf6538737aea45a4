import { DynamicModule, Module } from '@nestjs/common';
import type { ProviderName } from '#app/domain';
import type {
  ChangeNowConfig,
  DatabaseConfig,
  ProviderConfig,
  RedisConfig,
  WebhookConfig,
} from './app.config.js';

/**
 * What the shared lib modules read from their process's configuration. `ApiConfig`,
 * `PollerConfig` and `CliConfig` each fit it; the parts a process lacks stay absent, and a module
 * that needs one refuses to start without it (`requireSetting`).
 */
export interface AppSettings {
  database: DatabaseConfig;
  redis: RedisConfig;
  credentialEncryptionKey: Buffer;
  /** The providers routed across, in the order that breaks ties (`PROVIDERS`). */
  providers?: readonly ProviderName[];
  /** Changelly; null where `PROVIDERS` does not name it. */
  provider?: ProviderConfig | null;
  /** Changelly's test mode; null where the deployment has none. */
  testProvider?: ProviderConfig | null;
  /** ChangeNOW; null where `PROVIDERS` does not name it. */
  changenow?: ChangeNowConfig | null;
  /** ChangeNOW's test mode; null where the deployment has none. */
  testChangenow?: ChangeNowConfig | null;
  /**
   * Whose calls this process makes upstream: `partner` calls wait briefly for the shared budget,
   * `background` ones (the poller) take only slots partners leave free.
   */
  upstreamPriority?: 'partner' | 'background';
  webhooks?: WebhookConfig;
  /** The operator API's bearer token (the api only). */
  adminToken?: string;
}

export const APP_SETTINGS = Symbol('APP_SETTINGS');

/** A setting a module cannot work without: absent, the process stops at boot naming it. */
export function requireSetting<K extends keyof AppSettings>(
  settings: AppSettings,
  name: K,
): NonNullable<AppSettings[K]> {
  const value = settings[name];
  if (value === undefined || value === null) {
    throw new Error(`this process's configuration has no ${name}, which a module it imports needs`);
  }
  return value;
}

/**
 * The process's configuration under `APP_SETTINGS`: the one global module besides logging, so a
 * lib module reads its settings here instead of taking them through `forRoot` and being global.
 */
@Module({})
export class ConfigModule {
  static forRoot(settings: AppSettings): DynamicModule {
    return {
      module: ConfigModule,
      global: true,
      providers: [{ provide: APP_SETTINGS, useValue: settings }],
      exports: [APP_SETTINGS],
    };
  }
}
