import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { DatabaseConfig } from '#app/config';
import { dataSourceOptions } from './data-source.options.js';

/** The TypeORM connection. Migrations are applied by the process entry point before boot. */
@Module({})
export class PersistenceModule {
  static forRoot(database: DatabaseConfig): DynamicModule {
    return {
      module: PersistenceModule,
      imports: [
        TypeOrmModule.forRoot({
          ...dataSourceOptions(database.url, 20, database.timeoutMs),
          retryAttempts: 3,
          retryDelay: 1000,
        }),
      ],
    };
  }
}
