import { Module } from '@nestjs/common';
import { EventsModule } from '#app/events';
import { SwapsModule } from '#app/swaps';
import { SwapSearchModule } from '#app/swaps';
import { TestModeModule } from '#app/test-mode';
import { WebhooksDataModule } from '#app/webhooks';
import { DashboardCoreModule } from '../dashboard-core.module.js';
import { DashboardSwapsController } from './swaps.controller.js';

/** The Swaps pages. `SwapQueryService` and `EventsRepository` come from the app's global modules. */
@Module({
  imports: [
    DashboardCoreModule,
    SwapSearchModule,
    WebhooksDataModule,
    EventsModule,
    SwapsModule,
    TestModeModule,
  ],
  controllers: [DashboardSwapsController],
})
export class DashboardSwapsModule {}
