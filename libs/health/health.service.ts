import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
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

/** What `/health` reports about the running build. */
export interface HealthOptions {
  version: string;
  appEnv: string;
}

export const HEALTH_OPTIONS = Symbol('HEALTH_OPTIONS');

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
    @Inject(HEALTH_OPTIONS) private readonly options: HealthOptions,
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
    const [db, pending, redis] = await Promise.all([
      this.pingDatabase(),
      withTimeout(this.dataSource.showMigrations(), PROBE_TIMEOUT_MS).catch(() => true),
      this.store.health(PROBE_TIMEOUT_MS),
    ]);
    const dbState = !db ? 'down' : pending ? 'migrations_pending' : 'up';
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
