import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { HEALTH_CONFIG, InjectConfig, type HealthConfig } from '#app/config';
import { KEY_VALUE_STORE, type KeyValueStore, type StoreHealth } from '#app/redis';

/** Flat Health object of the spec. */
export interface HealthReport {
  ok: boolean;
  db: 'up' | 'down';
  latency_ms: number;
  version: string;
  env: string;
}

/** Readiness (docs/decisions.md, "`/ready` details"). */
export interface ReadinessReport {
  ok: boolean;
  checks: { db: 'up' | 'down' | 'migrations_pending'; redis: 'up' | 'down' };
}

const PROBE_TIMEOUT_MS = 1000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

@Injectable()
export class HealthService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(KEY_VALUE_STORE) private readonly store: KeyValueStore,
    @InjectConfig(HEALTH_CONFIG) private readonly options: HealthConfig,
  ) {}

  async health(): Promise<HealthReport> {
    const started = performance.now();
    const db = await this.pingDatabase();
    return {
      ok: db,
      db: db ? 'up' : 'down',
      latency_ms: Math.round((performance.now() - started) * 100) / 100,
      version: this.options.version,
      env: this.options.appEnv,
    };
  }

  async readiness(): Promise<ReadinessReport> {
    const [db, migrations, redis] = await Promise.all([
      this.pingDatabase(),
      this.migrationsState(),
      this.store.health(PROBE_TIMEOUT_MS),
    ]);
    const dbState = db ? migrations : 'down';
    // The in-process store of the embedded start is always up: nothing stands between us and it.
    const redisState = redis === 'down' ? 'down' : 'up';
    return {
      ok: dbState === 'up' && redisState === 'up',
      checks: { db: dbState, redis: redisState },
    };
  }

  /** Whether Postgres and Redis answer a ping now (`dependency_up` on `/metrics`). */
  async dependencies(): Promise<{ postgres: boolean; redis: StoreHealth }> {
    const [postgres, redis] = await Promise.all([
      this.pingDatabase(),
      this.store.health(PROBE_TIMEOUT_MS),
    ]);
    return { postgres, redis };
  }

  /**
   * Whether migrations are current. A check that fails or times out says nothing about the
   * migrations: it means Postgres refused us (out of connections, a connection refused while a
   * pooled one still answers the ping), so the database is unavailable.
   */
  private async migrationsState(): Promise<'up' | 'down' | 'migrations_pending'> {
    if (!this.dataSource.isInitialized) {
      return 'down';
    }
    try {
      const pending = await withTimeout(this.dataSource.showMigrations(), PROBE_TIMEOUT_MS);
      return pending ? 'migrations_pending' : 'up';
    } catch {
      return 'down';
    }
  }

  private async pingDatabase(): Promise<boolean> {
    if (!this.dataSource.isInitialized) {
      return false;
    }
    try {
      await withTimeout(this.dataSource.query('SELECT 1'), PROBE_TIMEOUT_MS);
      return true;
    } catch {
      return false;
    }
  }
}
