import { Module } from '@nestjs/common';
import { EarningsModule } from '#app/settlement';
import { WidgetsModule } from '#app/widgets';
import { AdminAuditController } from './audit.controller.js';
import { AdminCredentialsController } from './credentials.controller.js';
import { AdminEarningsController } from './earnings.controller.js';
import { AdminLegacySwapsController } from './legacy-swaps.controller.js';
import { AdminOrganizationsController } from './organizations.controller.js';
import { AdminWebhookEndpointsController } from './webhook-endpoints.controller.js';
import { AdminWidgetKeysController } from './widget-keys.controller.js';

/**
 * The operator API under `/admin`, behind the admin token (DECISIONS §5). OrganizationsService
 * comes from the one PartnersModule the api root imports, so revocations go through the same
 * authenticator that serves partner requests.
 */
@Module({
  imports: [EarningsModule, WidgetsModule],
  controllers: [
    AdminOrganizationsController,
    AdminCredentialsController,
    AdminAuditController,
    AdminLegacySwapsController,
    AdminEarningsController,
    AdminWebhookEndpointsController,
    AdminWidgetKeysController,
  ],
})
export class AdminModule {}
