import { DynamicModule, Module } from '@nestjs/common';
import type { ApiConfig } from '#app/config';

export const SITE_SETTINGS = Symbol('SITE_SETTINGS');

/** Where people reach the service: the origin of the links it mails and of its own pages. */
export interface SiteSettings {
  /** `PUBLIC_URL`'s origin, or null: each request's own scheme and `Host`. */
  publicUrl: string | null;
}

/** `SITE_SETTINGS` for every surface of the api (configuration only, so global). */
@Module({})
export class SiteSettingsModule {
  static forRoot(config: ApiConfig): DynamicModule {
    return {
      module: SiteSettingsModule,
      global: true,
      providers: [{ provide: SITE_SETTINGS, useValue: { publicUrl: config.dashboard.publicUrl } }],
      exports: [SITE_SETTINGS],
    };
  }
}
