import type { DataSource } from 'typeorm';
import { MemoryStore } from '#app/redis';
import { HealthService } from './health.service.js';

/**
 * Postgres as the outside run met it: the pool's open connection still answers `SELECT 1`, while
 * the migration check, which needs a connection of its own, is refused or never answered.
 */
class PartlyRefusingDatabase implements Pick<
  DataSource,
  'isInitialized' | 'query' | 'showMigrations'
> {
  readonly isInitialized = true;

  constructor(private readonly migrations: () => Promise<boolean>) {}

  query<T>(): Promise<T> {
    return Promise.resolve([{ '?column?': 1 }] as T);
  }

  showMigrations(): Promise<boolean> {
    return this.migrations();
  }
}

describe(HealthService.name, () => {
  let store: MemoryStore;

  beforeEach(() => {
    store = new MemoryStore();
  });

  afterEach(async () => {
    await store.close();
  });

  function healthWith(migrations: () => Promise<boolean>): HealthService {
    return new HealthService(
      new PartlyRefusingDatabase(migrations) as unknown as DataSource,
      store,
      { version: 'test', appEnv: 'test' },
    );
  }

  it('reports the database down, not migrations pending, when Postgres refuses the check', async () => {
    const sut = healthWith(() => Promise.reject(new Error('sorry, too many clients already')));

    await expect(sut.readiness()).resolves.toEqual({
      ok: false,
      checks: { db: 'down', redis: 'up' },
    });
  });

  it('reports the database down when the migration check does not answer within 1 s', async () => {
    const sut = healthWith(() => new Promise<boolean>(() => undefined));

    await expect(sut.readiness()).resolves.toEqual({
      ok: false,
      checks: { db: 'down', redis: 'up' },
    });
  });

  it('reports migrations pending only when Postgres says so', async () => {
    await expect(healthWith(() => Promise.resolve(true)).readiness()).resolves.toEqual({
      ok: false,
      checks: { db: 'migrations_pending', redis: 'up' },
    });
    await expect(healthWith(() => Promise.resolve(false)).readiness()).resolves.toEqual({
      ok: true,
      checks: { db: 'up', redis: 'up' },
    });
  });
});
