import { Module } from '@nestjs/common';
import { PartnerEarningsModule } from '#app/earnings';
import { AccountsController } from './accounts/accounts.controller.js';
import { PasswordResetController } from './accounts/password-reset.controller.js';
import { AuditLogController } from './audit-log/audit-log.controller.js';
import { ApiKeysPagesModule } from './api-keys/api-keys.module.js';
import { EventsPagesModule } from './events/events.module.js';
import { GetStartedPagesModule } from './get-started/get-started.module.js';
import { WebhooksPagesModule } from './webhooks/webhooks.module.js';
import { DashboardCoreModule } from './dashboard-core.module.js';
import { DashboardEarningsModule } from './earnings/earnings.module.js';
import { LandingController } from './landing/landing.controller.js';
import { OverviewController } from './overview/overview.controller.js';
import { SecondFactorsPagesModule } from './second-factors/second-factors.module.js';
import { SecurityController } from './security/security.controller.js';
import { TeamController } from './team/team.controller.js';
import { DashboardSwapsModule } from './swaps/swaps.module.js';
import { WidgetPagesModule } from './widget/widget.module.js';

/**
 * The accounts pages, the Overview, Team, Security and Audit log. The sign-in page takes its
 * second-factor step from the second factors' module.
 */
@Module({
  imports: [DashboardCoreModule, PartnerEarningsModule, SecondFactorsPagesModule],
  controllers: [
    AccountsController,
    PasswordResetController,
    OverviewController,
    TeamController,
    SecurityController,
    AuditLogController,
  ],
})
class AccountsPagesModule {}

/**
 * The partner dashboard at `/partner`. Each page group is its own module,
 * importing `DashboardCoreModule`, listed here.
 */
@Module({
  imports: [
    AccountsPagesModule,
    GetStartedPagesModule,
    ApiKeysPagesModule,
    WebhooksPagesModule,
    EventsPagesModule,
    DashboardSwapsModule,
    DashboardEarningsModule,
    WidgetPagesModule,
    SecondFactorsPagesModule,
  ],
  controllers: [LandingController],
})
export class DashboardModule {}
