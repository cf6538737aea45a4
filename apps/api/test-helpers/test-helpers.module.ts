import { DynamicModule, Module } from '@nestjs/common';
import { CatalogueModule } from '#app/catalogue';
import { SwapRefreshModule } from '#app/settlement';
import { SwapsDataModule } from '#app/swaps';
import {
  SANDBOX_CONTROL_OPTIONS,
  SandboxControlClient,
  type SandboxControlOptions,
} from './sandbox-control.client.js';
import { TestHelpersController } from './test-helpers.controller.js';
import { TestHelpersService } from './test-helpers.service.js';

/** `/v1/test_helpers/*`. Needs the global SwapsModule of `#app/swaps` and ProviderModule. */
@Module({})
export class TestHelpersModule {
  static forRoot(options: SandboxControlOptions): DynamicModule {
    return {
      module: TestHelpersModule,
      imports: [CatalogueModule, SwapsDataModule, SwapRefreshModule],
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
