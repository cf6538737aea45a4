import { DynamicModule, Module } from '@nestjs/common';
import { ConfigModule, type AppSettings } from '#app/config';
import { PersistenceModule } from '#app/persistence';

/**
 * What every long-running process of the service starts from: its configuration (`APP_SETTINGS`,
 * the one global module) and its database connection. The api, the poller and the CLI import it
 * once at their root; every other module imports the lib modules it uses itself.
 */
@Module({})
export class CoreModule {
  static forRoot(settings: AppSettings): DynamicModule {
    return {
      module: CoreModule,
      imports: [ConfigModule.forRoot(settings), PersistenceModule],
    };
  }
}
