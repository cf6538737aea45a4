import { Module } from '@nestjs/common';
import { AccountsModule } from '#app/accounts';
import { DashboardCsrf } from './shared/dashboard.csrf.js';
import { DashboardGuard } from './shared/dashboard.guard.js';
import { SignInSteps } from './shared/sign-in-steps.js';

/**
 * What every dashboard page module imports: the accounts (sessions, re-authentication, mail,
 * audit) and what `@DashboardController` needs (the guard and CSRF).
 */
@Module({
  imports: [AccountsModule],
  providers: [DashboardCsrf, DashboardGuard, SignInSteps],
  exports: [AccountsModule, DashboardCsrf, DashboardGuard, SignInSteps],
})
export class DashboardCoreModule {}
