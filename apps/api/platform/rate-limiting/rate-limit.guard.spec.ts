import { jest } from '@jest/globals';
import {
  Controller,
  Get,
  UseGuards,
  type CanActivate,
  type ExecutionContext,
  type INestApplication,
} from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { AllExceptionsFilter } from '#app/errors';
import { KEY_VALUE_STORE, MemoryStore, type WindowHit } from '#app/redis';
import type { PartnerRequest } from '../auth/partner-auth.guard.js';
import { RateLimitGuard } from './rate-limit.guard.js';
import { RateLimits } from './rate-limits.decorator.js';
import { RateLimitingModule } from './rate-limiting.module.js';

/** Stands in for PartnerAuthGuard: the credential is whatever the request names. */
class NamedCredentialGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<PartnerRequest>();
    req.partner = {
      credentialId: String(req.headers['x-credential']),
      publicKey: 'pk',
      organizationId: 'org',
      livemode: true,
      organizationStatus: 'active',
      feePercent: '0',
      providerActivated: true,
    };
    return true;
  }
}

@Controller('v1')
class ProbeController {
  @Get('probe')
  @RateLimits('ip', 'credential')
  @UseGuards(NamedCredentialGuard, RateLimitGuard)
  probe(): { ok: true } {
    return { ok: true };
  }

  @Get('quote')
  @RateLimits('public-quote')
  @UseGuards(RateLimitGuard)
  quote(): { ok: true } {
    return { ok: true };
  }
}

/** The shared store (Redis in production), able to fail like a Redis that is down. */
class FlakyStore extends MemoryStore {
  down = false;
  roundTrips = 0;

  override hitMany(entries: readonly WindowHit[]) {
    this.roundTrips += 1;
    return this.down
      ? Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379'))
      : super.hitMany(entries);
  }
}

/** The start of a one-second window, so every request below falls in the same one. */
const WINDOW_START = Date.parse('2026-01-01T00:00:00.000Z');

describe(RateLimitGuard.name, () => {
  let store: FlakyStore;
  let app: INestApplication;
  let now: number;

  beforeEach(async () => {
    store = new FlakyStore();
    now = WINDOW_START;
    // Every counter reads this clock: the store's windows and the per-process fallback's.
    jest.spyOn(Date, 'now').mockImplementation(() => now);

    const moduleRef = await Test.createTestingModule({
      imports: [RateLimitingModule],
      controllers: [ProbeController],
    })
      .overrideProvider(KEY_VALUE_STORE)
      .useValue(store)
      .compile();
    app = moduleRef.createNestApplication({ logger: false });
    app.useGlobalFilters(new AllExceptionsFilter());
    await app.init();
  });

  afterEach(async () => {
    jest.restoreAllMocks();
    await app.close();
    await store.close();
  });

  const probe = (credential: string) =>
    request(app.getHttpServer()).get('/v1/probe').set('X-Credential', credential);

  async function spend(credential: string, count: number): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < count; i++) {
      statuses.push((await probe(credential)).status);
    }
    return statuses;
  }

  it('counts each request once against every limit of the route, in one round trip', async () => {
    const res = await probe('cred-a');

    expect(res.status).toBe(200);
    expect(store.roundTrips).toBe(1);
    expect(res.headers).toMatchObject({
      'ratelimit-limit': '30',
      'ratelimit-remaining': '29',
      'ratelimit-reset': '1',
      'ratelimit-policy': '30;w=1',
    });
  });

  it('answers 429 with the spec headers past 30 requests of one credential in a second', async () => {
    expect(await spend('cred-a', 30)).toEqual(Array(30).fill(200));

    const res = await probe('cred-a');

    expect(res.status).toBe(429);
    expect(res.headers).toMatchObject({
      'ratelimit-limit': '30',
      'ratelimit-remaining': '0',
      'ratelimit-reset': '1',
      'ratelimit-policy': '30;w=1',
      'retry-after': '1',
    });
    expect(res.body).toEqual({
      error: {
        type: 'rate_limit_error',
        code: 'rate_limited',
        message: expect.stringContaining('30 requests per 1 s') as string,
        param: null,
        upstream_code: null,
        retry_after_ms: 1000,
      },
    });
  });

  it('limits each credential on its own', async () => {
    await spend('cred-a', 31);

    const other = await probe('cred-b');

    expect(other.status).toBe(200);
    // The headers describe the limit nearest exhaustion: now the address's, 31 of 120 spent
    // (cred-a's 31st request was refused, so it counted against no limit).
    expect(other.headers).toMatchObject({
      'ratelimit-remaining': '89',
      'ratelimit-policy': '120;w=1',
    });
  });

  it('answers 429 past 120 requests from one address, whatever their credentials', async () => {
    for (const credential of ['cred-a', 'cred-b', 'cred-c', 'cred-d']) {
      expect(await spend(credential, 30)).toEqual(Array(30).fill(200));
    }

    const res = await probe('cred-e');

    expect(res.status).toBe(429);
    expect(res.headers).toMatchObject({
      'ratelimit-limit': '120',
      'ratelimit-remaining': '0',
      'ratelimit-policy': '120;w=1',
      'retry-after': '1',
    });
  });

  it('says how long is left of a longer window', async () => {
    now = WINDOW_START + 5_000;
    const quote = () => request(app.getHttpServer()).get('/v1/quote');
    for (let i = 0; i < 60; i++) {
      expect((await quote()).status).toBe(200);
    }
    now = WINDOW_START + 20_000;

    const res = await quote();

    expect(res.status).toBe(429);
    expect(res.headers).toMatchObject({
      'ratelimit-limit': '60',
      'ratelimit-remaining': '0',
      'ratelimit-reset': '40',
      'ratelimit-policy': '60;w=60',
      'retry-after': '40',
    });
    expect(res.body.error.retry_after_ms).toBe(40_000);
  });

  it('admits the credential again once its window has passed', async () => {
    await spend('cred-a', 31);
    now = WINDOW_START + 2000;

    const res = await probe('cred-a');

    expect(res.status).toBe(200);
    expect(res.headers['ratelimit-remaining']).toBe('29');
  });

  describe('while the store is down', () => {
    it('still limits each credential, with per-process counters', async () => {
      store.down = true;

      expect(await spend('cred-a', 30)).toEqual(Array(30).fill(200));
      const res = await probe('cred-a');

      expect(store.roundTrips).toBe(31);
      expect(res.status).toBe(429);
      expect(res.headers).toMatchObject({
        'ratelimit-limit': '30',
        'ratelimit-remaining': '0',
        'ratelimit-policy': '30;w=1',
        'retry-after': '1',
      });
      expect(res.body.error.code).toBe('rate_limited');
      expect((await probe('cred-b')).status).toBe(200);
    });
  });
});
