import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_SETTINGS, type AppSettings } from '#app/config';
import { dataSourceOptions } from './data-source.options.js';

/**
 * The TypeORM connection, from `APP_SETTINGS.database`. Migrations are applied by the process
 * entry point before boot. `@nestjs/typeorm` makes the connection's `DataSource` visible to every
 * module (its own global core module), so repositories need no import of this one.
 */
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      useFactory: (settings: AppSettings) => ({
        ...dataSourceOptions(settings.database.url, 20, settings.database.timeoutMs),
        retryAttempts: 3,
        retryDelay: 1000,
      }),
      inject: [APP_SETTINGS],
    }),
  ],
})
export class PersistenceModule {}
