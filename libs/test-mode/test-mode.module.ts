import { Module } from '@nestjs/common';
import { CatalogueModule } from '#app/catalogue';
import { SwapRefreshModule } from '#app/polling';
import { RoutingModule } from '#app/routing';
import { SwapsDataModule, SwapsModule } from '#app/swaps';
import { SandboxControlClient } from './sandbox-control.client.js';
import { TestHelpersService } from './test-helpers.service.js';

/**
 * Test mode's helpers, for every surface that offers them (the partner API's
 * `/v1/test_helpers/*`, the widget's "Simulate deposit"): one instance per process.
 */
@Module({
  imports: [CatalogueModule, RoutingModule, SwapsModule, SwapsDataModule, SwapRefreshModule],
  providers: [SandboxControlClient, TestHelpersService],
  exports: [TestHelpersService],
})
export class TestModeModule {}
