import { DynamicModule, Module } from '@nestjs/common';
import { CatalogueModule } from '#app/catalogue';
import { ProviderModule } from '#app/provider';
import { SwapRefreshModule } from '#app/polling';
import { SwapsDataModule, SwapsModule } from '#app/swaps';
import { PartnerApiModule } from '../auth/partner-api.module.js';
import {
  SANDBOX_CONTROL_OPTIONS,
  SandboxControlClient,
  type SandboxControlOptions,
} from './sandbox-control.client.js';
import { TestHelpersController } from './test-helpers.controller.js';
import { TestHelpersService } from './test-helpers.service.js';

/** `/v1/test_helpers/*`. */
@Module({})
export class TestHelpersModule {
  static forRoot(options: SandboxControlOptions): DynamicModule {
    return {
      module: TestHelpersModule,
      imports: [
        CatalogueModule,
        ProviderModule,
        SwapsModule,
        SwapsDataModule,
        SwapRefreshModule,
        PartnerApiModule,
      ],
      controllers: [TestHelpersController],
      providers: [
        { provide: SANDBOX_CONTROL_OPTIONS, useValue: options },
        SandboxControlClient,
        TestHelpersService,
      ],
      exports: [TestHelpersService],
    };
  }
}
