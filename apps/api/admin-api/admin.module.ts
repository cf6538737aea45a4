import { Module } from '@nestjs/common';
import { AccountsModule } from '#app/accounts';
import { PartnersModule } from '#app/partners';
import { ProviderControlModule } from '#app/provider-control';
import { EarningsModule } from '#app/earnings';
import { SwapsModule } from '#app/swaps';
import { WebhooksModule } from '#app/webhooks';
import { WidgetsModule } from '#app/widgets';
import { AdminApiModule } from '../platform/auth/admin-api.module.js';
import { AdminAuditController } from './audit.controller.js';
import { AdminCredentialsController } from './credentials.controller.js';
import { AdminDashboardUsersController } from './dashboard-users.controller.js';
import { AdminEarningsController } from './earnings.controller.js';
import { AdminLegacySwapsController } from './legacy-swaps.controller.js';
import { AdminOrganizationsController } from './organizations.controller.js';
import { AdminProvidersController } from './providers.controller.js';
import { AdminSwapsController } from './swaps.controller.js';
import { AdminWebhookEndpointsController } from './webhook-endpoints.controller.js';
import { AdminWidgetKeysController } from './widget-keys.controller.js';

/**
 * The operator API under `/admin`, behind the admin token (docs/decisions.md, "Operating the
 * service"). PartnersModule is one instance per process, so revocations go through the same
 * authenticator that serves partner requests.
 */
@Module({
  imports: [
    AdminApiModule,
    PartnersModule,
    SwapsModule,
    EarningsModule,
    WebhooksModule,
    AccountsModule,
    WidgetsModule,
    ProviderControlModule,
  ],
  controllers: [
    AdminOrganizationsController,
    AdminCredentialsController,
    AdminAuditController,
    AdminLegacySwapsController,
    AdminSwapsController,
    AdminProvidersController,
    AdminEarningsController,
    AdminWebhookEndpointsController,
    AdminDashboardUsersController,
    AdminWidgetKeysController,
  ],
})
export class AdminModule {}
