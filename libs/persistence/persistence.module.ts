import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { dataSourceOptions } from './data-source.options.js';

/** The TypeORM connection. Migrations are applied by the process entry point before boot. */
@Module({})
export class PersistenceModule {
  static forRoot(url: string): DynamicModule {
    return {
      module: PersistenceModule,
      imports: [
        TypeOrmModule.forRoot({ ...dataSourceOptions(url), retryAttempts: 3, retryDelay: 1000 }),
      ],
    };
  }
}
