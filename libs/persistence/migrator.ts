import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from './data-source.options.js';

/** Applies pending migrations with a short-lived connection; replicas racing here are serialized by an advisory lock. */
export async function runMigrations(url: string): Promise<string[]> {
  const logger = new Logger('Migrations');
  const dataSource = new DataSource(dataSourceOptions(url, 1));
  await dataSource.initialize();
  try {
    await dataSource.query('SELECT pg_advisory_lock(727274)');
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    await dataSource.query('SELECT pg_advisory_unlock(727274)');
    const names = applied.map((m) => m.name);
    logger.log({ applied: names }, names.length ? 'migrations applied' : 'schema is current');
    return names;
  } finally {
    await dataSource.destroy();
  }
}
