import { DynamicModule, Module, Scope, type Provider } from '@nestjs/common';
import { CONFIG_NAMESPACES, type ConfigNamespaces } from './config.namespaces.js';

/**
 * A namespace the process's configuration lacks. It is provided all the same, transient and
 * throwing, so a process that imports a module needing it stops at boot naming the namespace;
 * a namespace nothing injects is never built.
 */
function missing(name: string, token: symbol): Provider {
  return {
    provide: token,
    scope: Scope.TRANSIENT,
    useFactory: () => {
      throw new Error(
        `this process's configuration has no ${name} namespace (${token.description ?? name}), which a module it imports needs`,
      );
    },
  };
}

/**
 * The process's configuration, one token per namespace (`DATABASE_CONFIG`, `MAIL_CONFIG`…): the
 * one global module besides logging. Each app root imports it once, through
 * `CoreModule.forRoot`, with the namespaces built from its parsed config; a lib module injects the
 * namespaces it reads (`@InjectConfig(TOKEN)`, or a factory's `inject`) and takes no options.
 */
@Module({})
export class ConfigModule {
  static forRoot(config: ConfigNamespaces): DynamicModule {
    const entries = Object.entries(CONFIG_NAMESPACES) as [keyof ConfigNamespaces, symbol][];
    const providers = entries.map(([name, token]): Provider => {
      const value = config[name];
      return value === undefined ? missing(name, token) : { provide: token, useValue: value };
    });
    return {
      module: ConfigModule,
      global: true,
      providers,
      exports: entries.map(([, token]) => token),
    };
  }
}
