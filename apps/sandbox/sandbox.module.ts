import { DynamicModule, Module } from '@nestjs/common';
import type { SandboxConfig } from '#app/config';
import { ControlController } from './control.controller.js';
import { ExchangeService } from './exchange.service.js';
import { RpcController } from './rpc.controller.js';
import { RpcService } from './rpc.service.js';
import { SANDBOX_CONFIG, SANDBOX_OPTIONS, type ResolvedSandboxOptions } from './sandbox.options.js';

@Module({})
export class SandboxModule {
  static forRoot(config: SandboxConfig, options: ResolvedSandboxOptions): DynamicModule {
    return {
      module: SandboxModule,
      controllers: [RpcController, ControlController],
      providers: [
        { provide: SANDBOX_CONFIG, useValue: config },
        { provide: SANDBOX_OPTIONS, useValue: options },
        ExchangeService,
        RpcService,
      ],
    };
  }
}
