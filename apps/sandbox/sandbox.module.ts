import { DynamicModule, Module } from '@nestjs/common';
import type { SandboxConfig } from '#app/config';
import { ChangeNowApiService } from './changenow-api.service.js';
import { ChangeNowExchangeService } from './changenow-exchange.service.js';
import { ChangeNowController } from './changenow.controller.js';
import { ControlController } from './control.controller.js';
import { ControlService } from './control.service.js';
import { ExchangeService } from './exchange.service.js';
import { RpcController } from './rpc.controller.js';
import { RpcService } from './rpc.service.js';
import { SANDBOX_CONFIG, SANDBOX_OPTIONS, type ResolvedSandboxOptions } from './sandbox.options.js';
import { SandboxState } from './sandbox.state.js';

@Module({})
export class SandboxModule {
  static forRoot(config: SandboxConfig, options: ResolvedSandboxOptions): DynamicModule {
    return {
      module: SandboxModule,
      controllers: [RpcController, ChangeNowController, ControlController],
      providers: [
        { provide: SANDBOX_CONFIG, useValue: config },
        { provide: SANDBOX_OPTIONS, useValue: options },
        SandboxState,
        ExchangeService,
        RpcService,
        ChangeNowExchangeService,
        ChangeNowApiService,
        ControlService,
      ],
    };
  }
}
