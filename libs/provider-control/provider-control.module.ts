import { Module } from '@nestjs/common';
import { ROUTING_CONFIG, type RoutingConfig } from '#app/config';
import { AuditLogRepository, PartnersModule } from '#app/partners';
import {
  ProviderCircuits,
  ProviderStats,
  ProviderStatsRepository,
  ProviderSwitches,
  RoutingStateModule,
} from '#app/routing';
import { ProviderControlService } from './provider-control.service.js';

/**
 * Operators' control of the providers, over routing's own state (the same switches, circuits and
 * stats the router of this process uses), for the api and the CLI alike.
 */
@Module({
  imports: [RoutingStateModule, PartnersModule],
  providers: [
    {
      provide: ProviderControlService,
      useFactory: (
        routing: RoutingConfig,
        switches: ProviderSwitches,
        circuits: ProviderCircuits,
        stats: ProviderStats,
        history: ProviderStatsRepository,
        audit: AuditLogRepository,
      ) => new ProviderControlService(routing.providers, switches, circuits, stats, history, audit),
      inject: [
        ROUTING_CONFIG,
        ProviderSwitches,
        ProviderCircuits,
        ProviderStats,
        ProviderStatsRepository,
        AuditLogRepository,
      ],
    },
  ],
  exports: [ProviderControlService],
})
export class ProviderControlModule {}
