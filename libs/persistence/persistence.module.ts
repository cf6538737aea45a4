import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DATABASE_CONFIG, type DatabaseConfig } from '#app/config';
import { dataSourceOptions } from './data-source.options.js';

/**
 * The TypeORM connection, from `DATABASE_CONFIG`. Migrations are applied by the process
 * entry point before boot. `@nestjs/typeorm` makes the connection's `DataSource` visible to every
 * module (its own global core module), so repositories need no import of this one.
 */
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      useFactory: (database: DatabaseConfig) => ({
        ...dataSourceOptions(database.url, 20, database.timeoutMs),
        retryAttempts: 3,
        retryDelay: 1000,
      }),
      inject: [DATABASE_CONFIG],
    }),
  ],
})
export class PersistenceModule {}
