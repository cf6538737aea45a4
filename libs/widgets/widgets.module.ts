import { Module } from '@nestjs/common';
import { PartnersModule } from '#app/partners';
import { RedisModule } from '#app/redis';
import { WidgetKeyAuthenticator } from './widget-key.authenticator.js';
import { WidgetKeysRepository } from './widget-keys.repository.js';
import { WidgetKeysService } from './widget-keys.service.js';

/**
 * Widget keys and their authentication, one instance per app however many modules import it (the
 * admin API, the widget API, the hosted widget, the dashboard), with the organizations, audit log
 * and key-value store (revocation fan-out) it uses. The status tokens of
 * widget swaps (`StatusTokens`) take the encryption key, so the widget API provides them.
 */
@Module({
  imports: [PartnersModule, RedisModule],
  providers: [WidgetKeysRepository, WidgetKeyAuthenticator, WidgetKeysService],
  exports: [WidgetKeysRepository, WidgetKeyAuthenticator, WidgetKeysService],
})
export class WidgetsModule {}
