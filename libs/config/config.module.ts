import { DynamicModule, Module } from '@nestjs/common';

/** Injection token of the validated configuration object of the running app. */
export const APP_CONFIG = Symbol('APP_CONFIG');

/** Makes an already validated config object injectable everywhere under `APP_CONFIG`. */
@Module({})
export class ConfigModule {
  static forRoot(config: object): DynamicModule {
    return {
      module: ConfigModule,
      global: true,
      providers: [{ provide: APP_CONFIG, useValue: config }],
      exports: [APP_CONFIG],
    };
  }
}
