import { Inject, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { REDIS_CONFIG, type RedisConfig } from '#app/config';
import { KEY_VALUE_STORE, type KeyValueStore } from './key-value.store.js';
import { MemoryStore } from './memory.store.js';
import { RedisStore } from './redis.store.js';

export interface RedisModuleOptions {
  /** null: in-process stores (embedded start only). */
  url: string | null;
  keyPrefix: string;
}

export function createKeyValueStore(options: RedisModuleOptions): KeyValueStore {
  if (options.url === null) {
    new Logger('RedisModule').warn(
      'REDIS_URL is not set: using in-process stores; limits and caches are per process',
    );
    return new MemoryStore();
  }
  return new RedisStore(options.url, options.keyPrefix);
}

/**
 * One shared KeyValueStore per process under `KEY_VALUE_STORE`, from `REDIS_CONFIG`. Every
 * module that uses the store imports this one; Nest builds it once per process.
 */
@Module({
  providers: [
    {
      provide: KEY_VALUE_STORE,
      useFactory: (redis: RedisConfig) => createKeyValueStore(redis),
      inject: [REDIS_CONFIG],
    },
  ],
  exports: [KEY_VALUE_STORE],
})
export class RedisModule implements OnApplicationShutdown {
  constructor(@Inject(KEY_VALUE_STORE) private readonly store: KeyValueStore) {}

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}
