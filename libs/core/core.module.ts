import { DynamicModule, Module } from '@nestjs/common';
import { ConfigModule, type ConfigNamespaces } from '#app/config';
import { PersistenceModule } from '#app/persistence';

/**
 * What every long-running process of the service starts from: its configuration (`ConfigModule`,
 * one token per namespace, the one global module) and its database connection. The api, the
 * poller and the CLI import it once at their root with the namespaces they have; every other
 * module imports the lib modules it uses itself and injects the namespaces it reads.
 */
@Module({})
export class CoreModule {
  static forRoot(config: ConfigNamespaces): DynamicModule {
    return {
      module: CoreModule,
      imports: [ConfigModule.forRoot(config), PersistenceModule],
    };
  }
}
