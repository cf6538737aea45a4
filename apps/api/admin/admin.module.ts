import { Module } from '@nestjs/common';
import { AccountsModule } from '#app/accounts';
import { EarningsModule } from '#app/settlement';
import { WidgetsModule } from '#app/widgets';
import { AdminAuditController } from './audit.controller.js';
import { AdminCredentialsController } from './credentials.controller.js';
import { AdminDashboardUsersController } from './dashboard-users.controller.js';
import { AdminEarningsController } from './earnings.controller.js';
import { AdminLegacySwapsController } from './legacy-swaps.controller.js';
import { AdminOrganizationsController } from './organizations.controller.js';
import { AdminWebhookEndpointsController } from './webhook-endpoints.controller.js';
import { AdminWidgetKeysController } from './widget-keys.controller.js';

/**
 * The operator API under `/admin`, behind the admin token (docs/decisions.md, "Operating the
 * service"). OrganizationsService comes from the one PartnersModule the api root imports, so
 * revocations go through the same authenticator that serves partner requests.
 */
@Module({
  imports: [EarningsModule, AccountsModule, WidgetsModule],
  controllers: [
    AdminOrganizationsController,
    AdminCredentialsController,
    AdminAuditController,
    AdminLegacySwapsController,
    AdminEarningsController,
    AdminWebhookEndpointsController,
    AdminDashboardUsersController,
    AdminWidgetKeysController,
  ],
})
export class AdminModule {}
