import { DynamicModule, Module } from '@nestjs/common';
import { ConfigModule, type SandboxConfig } from '#app/config';
import { ControlController } from './control.controller.js';
import { ExchangeService } from './exchange.service.js';
import { RpcController } from './rpc.controller.js';
import { RpcService } from './rpc.service.js';
import { SANDBOX_OPTIONS, type ResolvedSandboxOptions } from './sandbox.options.js';

@Module({})
export class SandboxModule {
  static forRoot(config: SandboxConfig, options: ResolvedSandboxOptions): DynamicModule {
    return {
      module: SandboxModule,
      imports: [ConfigModule.forRoot(config)],
      controllers: [RpcController, ControlController],
      providers: [{ provide: SANDBOX_OPTIONS, useValue: options }, ExchangeService, RpcService],
    };
  }
}
