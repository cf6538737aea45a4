import type { AddressInfo } from 'node:net';
import { Controller, Get, Inject, Module, Param, Req } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Request } from 'express';
import { Redis } from 'ioredis';
import pg from 'pg';

const CONSTANT = { ok: true };

@Controller()
class BaselineController {
  @Get()
  constant(): { ok: boolean } {
    return CONSTANT;
  }
}

@Module({ controllers: [BaselineController] })
class BaselineModule {}

export interface BaselineServer {
  url: string;
  close(): Promise<void>;
}

/**
 * The ceiling every scenario is compared with: the same framework and HTTP stack with nothing in
 * it, so a ratio shows what the api's own work (auth, limits, database, logging) costs.
 */
export async function startBaseline(): Promise<BaselineServer> {
  const app = await NestFactory.create<NestExpressApplication>(BaselineModule, { logger: false });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => app.close() };
}

/** 25 columns, as wide as a swap: ids, amounts, addresses, hashes and timestamps. */
const FLOOR_TABLE = `CREATE TABLE IF NOT EXISTS bench_floor_rows (
  id text PRIMARY KEY, organization_id uuid NOT NULL, provider_transaction_id text,
  status text NOT NULL, mode text NOT NULL, livemode boolean NOT NULL, from_ticker text NOT NULL,
  to_ticker text NOT NULL, amount_from numeric NOT NULL, amount_expected_to numeric,
  amount_actual_from numeric, amount_actual_to numeric, network_fee numeric,
  actual_network_fee numeric, rate numeric, payin_address text NOT NULL,
  payout_address text NOT NULL, refund_address text, payin_hash text, payout_hash text,
  money_received_at timestamptz, money_sent_at timestamptz, partner_reference_id text,
  pay_till timestamptz, created_at timestamptz NOT NULL DEFAULT now())`;

const FLOOR_SEED = `INSERT INTO bench_floor_rows (id, organization_id, provider_transaction_id,
  status, mode, livemode, from_ticker, to_ticker, amount_from, amount_expected_to, rate,
  payin_address, payout_address, pay_till)
  SELECT 'row' || n, gen_random_uuid(), md5(n::text), 'waiting', 'float', true, 'btc', 'eth', 0.1,
         2.41, 24.1, 'bc1q' || md5(n::text), '0x' || md5('p' || n::text), now() + interval '1 day'
    FROM generate_series(0, $1::int - 1) AS n
  ON CONFLICT (id) DO NOTHING`;

/** Two sliding-window counters (per IP, per credential) on the Redis clock in one script call. */
const TWO_COUNTERS = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local out = {}
for i, key in ipairs(KEYS) do
  local index = math.floor(now / 1000)
  local current = redis.call('INCR', key .. ':' .. index)
  if current == 1 then redis.call('PEXPIRE', key .. ':' .. index, 2000) end
  local previous = tonumber(redis.call('GET', key .. ':' .. (index - 1)) or '0')
  out[2 * i - 1] = previous + current
  out[2 * i] = 1000 - (now - index * 1000)
end
return out`;

interface FloorRedis extends Redis {
  twoCounters(ip: string, credential: string): Promise<number[]>;
}

/** As large as the public quote's answer. */
const FLOOR_QUOTE = {
  quote: {
    from: 'btc',
    to: 'eth',
    amountFrom: '0.5',
    amountTo: '12.04401875',
    networkFee: '0.0006',
    amountUserReceives: '12.04341875',
    rate: '24.1',
    min: '0.001',
    max: '20',
    rateType: 'float',
    feeNote:
      'The rate includes the standard 0.5% service fee. The network fee is shown separately.',
  },
};

const FLOOR_POOL = Symbol('FLOOR_POOL');
const FLOOR_REDIS = Symbol('FLOOR_REDIS');

@Controller()
class FloorController {
  constructor(
    @Inject(FLOOR_POOL) private readonly pool: pg.Pool,
    @Inject(FLOOR_REDIS) private readonly redis: FloorRedis,
  ) {}

  /**
   * The Redis-only floor, for the public quote: count the limits in one `EVALSHA` and answer a
   * quote-sized body held in memory (the quote's reference comes from the process's cache).
   */
  @Get('quote')
  async quote(@Req() req: Request): Promise<typeof FLOOR_QUOTE> {
    await this.redis.twoCounters(`ip:${req.ip ?? ''}`, 'public-quote');
    return FLOOR_QUOTE;
  }

  /** The list floor: count the limits, read 50 rows of a swap's width in one prepared query. */
  @Get('rows')
  async list(@Req() req: Request): Promise<{ rows: unknown[] }> {
    await this.redis.twoCounters(`ip:${req.ip ?? ''}`, 'cred:list');
    const { rows } = await this.pool.query({
      name: 'floor-rows-page',
      text: 'SELECT * FROM bench_floor_rows ORDER BY created_at DESC, id DESC LIMIT 50',
    });
    return { rows };
  }

  /** What an authenticated read cannot avoid: count its limits, read one row by key, answer it. */
  @Get('rows/:id')
  async read(@Param('id') id: string, @Req() req: Request): Promise<{ row: unknown }> {
    await this.redis.twoCounters(`ip:${req.ip ?? ''}`, `cred:${id}`);
    const { rows } = await this.pool.query({
      name: 'floor-row-by-id',
      text: 'SELECT * FROM bench_floor_rows WHERE id = $1',
      values: [id],
    });
    return { row: rows[0] ?? null };
  }
}

/**
 * The floors: bare NestJS-Express doing only the I/O a route must do. `/rows/:id` (the I/O floor
 * of an authenticated read): one `EVALSHA` (two counters, ioredis with one defined script) and one
 * named prepared primary-key query on a plain `pg` pool against a 25-column table; `/rows` (the
 * list floor): the same with one prepared query of 50 rows; `/quote` (the Redis-only floor): the
 * `EVALSHA` alone. No auth, no logging, no mapping.
 */
export async function startFloor(
  databaseUrl: string,
  redisUrl: string,
  redisPrefix: string,
  rows: number,
): Promise<BaselineServer> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 20 });
  await pool.query(FLOOR_TABLE);
  await pool.query(FLOOR_SEED, [rows]);
  const redis = new Redis(redisUrl, {
    keyPrefix: `${redisPrefix}floor:`,
    enableAutoPipelining: true,
  }) as FloorRedis;
  redis.defineCommand('twoCounters', { numberOfKeys: 2, lua: TWO_COUNTERS });

  @Module({
    controllers: [FloorController],
    providers: [
      { provide: FLOOR_POOL, useValue: pool },
      { provide: FLOOR_REDIS, useValue: redis },
    ],
  })
  class FloorModule {}

  const app = await NestFactory.create<NestExpressApplication>(FloorModule, { logger: false });
  app.set('trust proxy', 1);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      await app.close();
      await pool.end();
      redis.disconnect();
    },
  };
}
