import { Module } from '@nestjs/common';
import { CatalogueModule } from '#app/catalogue';
import { PROVIDERS_CONFIG, type ProvidersConfig } from '#app/config';
import { SwapRefreshModule } from '#app/polling';
import { RoutingModule } from '#app/routing';
import { SwapsDataModule, SwapsModule } from '#app/swaps';
import {
  SANDBOX_CONTROL_OPTIONS,
  SandboxControlClient,
  type SandboxControlOptions,
} from './sandbox-control.client.js';
import { TestHelpersService } from './test-helpers.service.js';

/**
 * Test mode's helpers, for every surface that offers them (the partner API's
 * `/v1/test_helpers/*`, the widget's "Simulate deposit"): one instance per process.
 */
@Module({
  imports: [CatalogueModule, RoutingModule, SwapsModule, SwapsDataModule, SwapRefreshModule],
  providers: [
    {
      provide: SANDBOX_CONTROL_OPTIONS,
      // The sandbox serves both providers' test endpoints and one control API beside them.
      useFactory: (providers: ProvidersConfig): SandboxControlOptions => ({
        testProvider: providers.testProvider ?? providers.testChangenow ?? null,
      }),
      inject: [PROVIDERS_CONFIG],
    },
    SandboxControlClient,
    TestHelpersService,
  ],
  exports: [TestHelpersService],
})
export class TestModeModule {}
