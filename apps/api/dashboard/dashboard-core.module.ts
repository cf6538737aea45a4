import { Module } from '@nestjs/common';
import { AccountsModule } from '#app/accounts';
import { CREDENTIALS_CONFIG, DASHBOARD_CONFIG } from '#app/config';
import { PartnersModule } from '#app/partners';
import { RateLimitingModule } from '../platform/rate-limiting/rate-limiting.module.js';
import { DASHBOARD_SETTINGS, dashboardSettings } from './common/dashboard.config.js';
import { DashboardCsrf } from './common/dashboard.csrf.js';
import { DashboardGuard } from './common/dashboard.guard.js';
import { ReauthPrompts } from './common/reauth.js';

/**
 * What every dashboard page module imports: the accounts (sessions, re-authentication and its
 * prompt, mail, audit) and what `@DashboardController` needs (the guard, CSRF and the request limits).
 */
@Module({
  imports: [AccountsModule, PartnersModule, RateLimitingModule],
  providers: [
    {
      provide: DASHBOARD_SETTINGS,
      useFactory: dashboardSettings,
      inject: [DASHBOARD_CONFIG, CREDENTIALS_CONFIG],
    },
    DashboardCsrf,
    DashboardGuard,
    ReauthPrompts,
  ],
  exports: [
    AccountsModule,
    PartnersModule,
    RateLimitingModule,
    DASHBOARD_SETTINGS,
    DashboardCsrf,
    DashboardGuard,
    ReauthPrompts,
  ],
})
export class DashboardCoreModule {}
