import { DataSource } from 'typeorm';
import { loadDatabaseConfig } from '#app/config';
import { dataSourceOptions } from './data-source.options.js';

/** The data source the TypeORM CLI uses (`npm run migration:*`). */
export default new DataSource(dataSourceOptions(loadDatabaseConfig(process.env).url, 2));
