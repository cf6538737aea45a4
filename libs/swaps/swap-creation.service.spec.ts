import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { jest } from '@jest/globals';
import { Test } from '@nestjs/testing';
import { getDataSourceToken } from '@nestjs/typeorm';
import { CatalogueService } from '#app/catalogue';
import { AppError, ErrorCode } from '#app/errors';
import { EventRecorder } from '#app/events';
import { ProviderError, mapRpcError } from '#app/provider';
import { LiquidityRouter } from '#app/routing';
import { FixedRatesRepository } from '#app/quotes';
import { KEY_VALUE_STORE, MemoryStore } from '#app/redis';
import { ADDRESSES, authenticatedPartner, btcEthPair, providerTransaction } from '#test/factories';
import {
  FakeCatalogue,
  FakeDataSource,
  FakeEventRecorder,
  FakeFixedRates,
  FakeIdempotencyKeys,
  FakeLiquidityProvider,
  FakeSwapViews,
  FakeSwaps,
  routerOver,
  timedOut,
} from '#test/fakes';
import type { CreateSwapInput } from './create-swap.input.js';
import { IdempotencyRepository } from './idempotency.repository.js';
import { bodyFingerprint } from './idempotency-key.js';
import { KeyCache } from './key-cache.js';
import { KeyReservations, SWAP_CREATION_OPTIONS } from './key-reservations.js';
import { SwapCreationService } from './swap-creation.service.js';
import { SwapPersistence } from './swap-persistence.js';
import { SwapPricing } from './swap-pricing.js';
import { SwapViewsRepository } from './swap-views.repository.js';
import { SwapsRepository } from './swaps.repository.js';
import { UpstreamAttempts } from './upstream-attempts.js';

const PAYOUT = ADDRESSES.eth;
const PARTNER = authenticatedPartner();

const BODY: CreateSwapInput = { from: 'btc', to: 'eth', amountFrom: '0.1', address: PAYOUT };

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error: unknown = await promise.then(
    () => new Error('expected the creation to fail'),
    (e: unknown) => e,
  );
  if (error instanceof AppError) {
    return error;
  }
  throw error;
}

describe(SwapCreationService.name, () => {
  let idempotency: FakeIdempotencyKeys;
  let swaps: FakeSwaps;
  let events: FakeEventRecorder;
  let provider: FakeLiquidityProvider;
  let fixedRates: FakeFixedRates;
  let catalogue: FakeCatalogue;
  let store: MemoryStore;
  let sut: SwapCreationService;

  /**
   * A creation service on these fakes, with `redis` as its Redis (a replica of its own), routing
   * across `providers` (the fake Changelly alone unless a spec says else).
   */
  async function creationService(
    redis: MemoryStore,
    providers: FakeLiquidityProvider[] = [provider],
  ): Promise<SwapCreationService> {
    const moduleRef = await Test.createTestingModule({
      providers: [
        SwapCreationService,
        KeyReservations,
        KeyCache,
        UpstreamAttempts,
        SwapPricing,
        SwapPersistence,
        { provide: CatalogueService, useValue: new FakeCatalogue(btcEthPair(providers)) },
        { provide: FixedRatesRepository, useValue: fixedRates },
        { provide: IdempotencyRepository, useValue: idempotency },
        { provide: SwapsRepository, useValue: swaps },
        { provide: SwapViewsRepository, useValue: new FakeSwapViews(swaps) },
        { provide: EventRecorder, useValue: events },
        { provide: KEY_VALUE_STORE, useValue: redis },
        { provide: LiquidityRouter, useValue: routerOver(providers).router },
        { provide: getDataSourceToken(), useValue: new FakeDataSource() },
        { provide: SWAP_CREATION_OPTIONS, useValue: { providerTimeoutMs: 1000, providers: 2 } },
      ],
    }).compile();
    return moduleRef.get(SwapCreationService);
  }

  beforeEach(async () => {
    store = new MemoryStore();
    idempotency = new FakeIdempotencyKeys();
    swaps = new FakeSwaps();
    events = new FakeEventRecorder();
    provider = new FakeLiquidityProvider();
    fixedRates = new FakeFixedRates();
    catalogue = new FakeCatalogue(btcEthPair([provider]));
    sut = await creationService(store);
  });

  afterEach(async () => {
    jest.restoreAllMocks();
    await store.close();
  });

  it('creates one upstream transaction and stores it as a waiting swap', async () => {
    const key = randomUUID();

    const created = await sut.create(PARTNER, key, BODY);

    expect(created.replayed).toBe(false);
    expect(created.swap).toMatchObject({ status: 'waiting', from: 'btc', to: 'eth' });
    expect(provider.creates).toHaveLength(1);
    expect(provider.creates[0]).toMatchObject({
      from: 'btc',
      to: 'eth',
      amountFrom: '0.1',
      address: PAYOUT,
      userMetadata: expect.stringMatching(/^attempt:[0-9a-f]{24}$/) as string,
    });
    expect(swaps.stored).toHaveLength(1);
    expect(swaps.stored[0]).toMatchObject({ id: created.swap.id, providerTransactionId: 'tx-1' });
    expect(idempotency.row(key)).toMatchObject({ state: 'completed', swapId: created.swap.id });
    expect(events.recorded).toMatchObject([
      {
        type: 'swap.created',
        organizationId: PARTNER.organizationId,
        data: { swap: created.swap, previousStatus: null },
      },
    ]);
  });

  describe('a lost upstream answer', () => {
    it('is answered as the create call failed, and the attempt is kept for the retry', async () => {
      const key = randomUUID();
      provider.nextCreate = 'lose-answer';

      const error = await failure(sut.create(PARTNER, key, BODY));

      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({ code: ErrorCode.UpstreamUnavailable, status: 503 });
      expect(swaps.stored).toHaveLength(0);
      expect(idempotency.row(key)).toMatchObject({
        state: 'pending',
        locked: false,
        attempt: { marker: expect.any(String) as string, address: PAYOUT, amountFrom: '0.1' },
      });
    });

    it('is found by the retry, which stores the transaction without creating again', async () => {
      const key = randomUUID();
      provider.nextCreate = 'lose-answer';
      await failure(sut.create(PARTNER, key, BODY));
      const attempt = idempotency.row(key)?.attempt;
      // Another client's transaction to the same address, same pair and amount, comes first.
      provider.known = [providerTransaction({ id: 'tx-stranger', userMetadata: 'attempt:other' })];

      const retried = await sut.create(PARTNER, key, BODY);

      expect(provider.creates).toHaveLength(1);
      expect(provider.lookups).toEqual([
        {
          payoutAddress: PAYOUT,
          since: new Date(Date.parse(attempt?.startedAt ?? '') - 60_000).toISOString(),
          limit: 100,
          offset: 0,
        },
      ]);
      expect(retried.replayed).toBe(false);
      expect(swaps.stored).toHaveLength(1);
      expect(swaps.stored[0]).toMatchObject({ id: retried.swap.id, providerTransactionId: 'tx-1' });
      expect(idempotency.row(key)).toMatchObject({ state: 'completed', swapId: retried.swap.id });
      expect(events.recorded.map((e) => e.data.swap.id)).toEqual([retried.swap.id]);

      const again = await sut.create(PARTNER, key, BODY);
      expect(again).toEqual({ swap: retried.swap, replayed: true });
      expect(provider.creates).toHaveLength(1);
      expect(events.recorded).toHaveLength(1);
    });

    it('creates afresh once the lookup proves nothing was created', async () => {
      const key = randomUUID();
      provider.nextCreate = 'time-out-before-creating';
      await failure(sut.create(PARTNER, key, BODY));
      const lost = idempotency.row(key)?.attempt;

      const retried = await sut.create(PARTNER, key, BODY);

      expect(provider.lookups).toHaveLength(1);
      expect(provider.creates).toHaveLength(2);
      expect(provider.creates[1].userMetadata).not.toBe(`attempt:${lost?.marker}`);
      expect(swaps.stored.map((s) => s.providerTransactionId)).toEqual(['tx-1']);
      expect(idempotency.row(key)).toMatchObject({ state: 'completed', swapId: retried.swap.id });
    });

    it('looks through every page of the lookup for the attempt', async () => {
      const key = randomUUID();
      provider.nextCreate = 'lose-answer';
      await failure(sut.create(PARTNER, key, BODY));
      provider.known = Array.from({ length: 100 }, (_, i) =>
        providerTransaction({ id: `tx-other-${i}`, userMetadata: `attempt:other-${i}` }),
      );

      await sut.create(PARTNER, key, BODY);

      expect(provider.lookups.map((q) => ('offset' in q ? q.offset : null))).toEqual([0, 100]);
      expect(provider.creates).toHaveLength(1);
      expect(swaps.stored.map((s) => s.providerTransactionId)).toEqual(['tx-1']);
    });

    it('keeps the attempt and answers 503 without creating when the lookup fails', async () => {
      const key = randomUUID();
      provider.nextCreate = 'lose-answer';
      await failure(sut.create(PARTNER, key, BODY));
      const attempt = idempotency.row(key)?.attempt;
      provider.beforeLookup = () => timedOut('getTransactions');

      const error = await failure(sut.create(PARTNER, key, BODY));

      expect(error).not.toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({ code: ErrorCode.UpstreamUnavailable, status: 503 });
      expect(error.message).toContain('Retry with the same Idempotency-Key');
      expect(provider.creates).toHaveLength(1);
      expect(swaps.stored).toHaveLength(0);
      expect(idempotency.row(key)).toMatchObject({ state: 'pending', locked: false, attempt });

      provider.beforeLookup = () => undefined;
      const settled = await sut.create(PARTNER, key, BODY);
      expect(provider.creates).toHaveLength(1);
      expect(swaps.stored.map((s) => s.providerTransactionId)).toEqual(['tx-1']);
      expect(settled.replayed).toBe(false);
    });

    it('keeps the attempt when the swap could not be stored, and the retry stores it', async () => {
      const key = randomUUID();
      swaps.insertFailure = new Error('Connection terminated');

      const error = await failure(sut.create(PARTNER, key, BODY));

      expect(error).toMatchObject({ code: ErrorCode.UpstreamUnavailable, status: 503 });
      expect(idempotency.row(key)).toMatchObject({ state: 'pending', locked: false });
      expect(idempotency.row(key)?.attempt).not.toBeNull();

      const retried = await sut.create(PARTNER, key, BODY);

      expect(provider.creates).toHaveLength(1);
      expect(swaps.stored.map((s) => [s.id, s.providerTransactionId])).toEqual([
        [retried.swap.id, 'tx-1'],
      ]);
    });
  });

  describe('a fixed swap', () => {
    const fixedBody = (rateId: string): CreateSwapInput => ({
      ...BODY,
      mode: 'fixed',
      rateId,
      refundAddress: ADDRESSES.btc,
    });

    it('is created on its quote, which it spends', async () => {
      const rate = fixedRates.quote(PARTNER);

      const created = await sut.create(PARTNER, randomUUID(), fixedBody(rate.id));

      expect(provider.creates[0]).toMatchObject({ rateId: rate.providerRateId });
      expect(created.swap).toMatchObject({ mode: 'fixed', amountExpectedTo: '1.508' });
      expect(rate).toMatchObject({ swapId: created.swap.id, usedAt: expect.any(Date) as Date });
    });

    it('is found by the retry after a lost answer, on the terms of its quote', async () => {
      const rate = fixedRates.quote(PARTNER);
      const key = randomUUID();
      provider.nextCreate = 'lose-answer';
      await failure(sut.create(PARTNER, key, fixedBody(rate.id)));

      const retried = await sut.create(PARTNER, key, fixedBody(rate.id));

      expect(provider.creates).toHaveLength(1);
      expect(retried.swap).toMatchObject({ mode: 'fixed', amountExpectedTo: '1.508' });
    });

    it('needs a new quote once a lookup proves its spent rate created nothing', async () => {
      // docs/decisions.md, "Fixed rates are spent when a swap takes them".
      const rate = fixedRates.quote(PARTNER);
      const key = randomUUID();
      provider.nextCreate = 'time-out-before-creating';
      await failure(sut.create(PARTNER, key, fixedBody(rate.id)));

      const error = await failure(sut.create(PARTNER, key, fixedBody(rate.id)));

      expect(error).toMatchObject({ code: ErrorCode.RateExpired, status: 409, param: 'rateId' });
      expect(provider.lookups).toHaveLength(1);
      expect(provider.creates).toHaveLength(1);
      expect(idempotency.row(key)).toBeUndefined();
    });
  });

  describe('validation', () => {
    it.each<[string, Partial<CreateSwapInput>, ErrorCode, string]>([
      [
        'a payout address of another chain',
        { address: ADDRESSES.btc },
        ErrorCode.InvalidAddress,
        'address',
      ],
      [
        'a refund address of another chain',
        { refundAddress: PAYOUT },
        ErrorCode.InvalidAddress,
        'refundAddress',
      ],
      [
        'an amount below the minimum',
        { amountFrom: '0.0001' },
        ErrorCode.AmountBelowMin,
        'amountFrom',
      ],
      [
        'an amount with too many decimals',
        { amountFrom: '0.123456789' },
        ErrorCode.InvalidRequest,
        'amountFrom',
      ],
    ])(
      'refuses %s before any upstream call and gives the key back',
      async (_case, change, code, param) => {
        const key = randomUUID();

        const error = await failure(sut.create(PARTNER, key, { ...BODY, ...change }));

        expect(error).toMatchObject({ code, param });
        expect(provider.creates).toHaveLength(0);
        expect(provider.lookups).toHaveLength(0);
        expect(idempotency.row(key)).toBeUndefined();
      },
    );

    it.each<[string, Partial<CreateSwapInput>, ErrorCode, string]>([
      [
        'a fixed swap without a rateId',
        { mode: 'fixed', refundAddress: ADDRESSES.btc },
        ErrorCode.MissingRateId,
        'rateId',
      ],
      [
        'a fixed swap without a refundAddress',
        { mode: 'fixed', rateId: 'rate-1' },
        ErrorCode.MissingRefundAddress,
        'refundAddress',
      ],
      ['an extraId', { extraId: 'memo' }, ErrorCode.InvalidRequest, 'extraId'],
    ])('refuses %s before it claims the key', async (_case, change, code, param) => {
      const key = randomUUID();

      const error = await failure(sut.create(PARTNER, key, { ...BODY, ...change }));

      expect(error).toMatchObject({ code, param });
      expect(idempotency.rows).toHaveLength(0);
      expect(catalogue.asked).toHaveLength(0);
      expect(provider.creates).toHaveLength(0);
    });

    it('refuses a key that is not a UUID v4 before anything else', async () => {
      const error = await failure(sut.create(PARTNER, 'not-a-uuid', BODY));

      expect(error).toMatchObject({ code: ErrorCode.InvalidRequest, param: 'Idempotency-Key' });
      expect(idempotency.rows).toHaveLength(0);
      expect(provider.creates).toHaveLength(0);
    });
  });

  describe('idempotency', () => {
    it('replays the stored swap for the same key and body, without another upstream call', async () => {
      const key = randomUUID();
      const first = await sut.create(PARTNER, key, BODY);

      const replay = await sut.create(PARTNER, key.toUpperCase(), { ...BODY });

      expect(replay).toEqual({ swap: first.swap, replayed: true });
      expect(provider.creates).toHaveLength(1);
      expect(swaps.stored).toHaveLength(1);
    });

    it('refuses the same key with another body (409 idempotency_key_mismatch)', async () => {
      const key = randomUUID();
      await sut.create(PARTNER, key, BODY);

      const error = await failure(sut.create(PARTNER, key, { ...BODY, amountFrom: '0.2' }));

      expect(error).toMatchObject({
        code: ErrorCode.IdempotencyKeyMismatch,
        status: 409,
        param: 'Idempotency-Key',
      });
      expect(provider.creates).toHaveLength(1);
      expect(swaps.stored).toHaveLength(1);
    });

    it('answers 409 idempotency_key_in_use when the first request still runs after 10 s', async () => {
      const key = randomUUID();
      await idempotency.reserve(PARTNER.credentialId, key, bodyFingerprint(BODY));
      let now = Date.now();
      jest.spyOn(Date, 'now').mockImplementation(() => now);
      idempotency.onBusy = () => {
        now += 4_000;
      };

      const error = await failure(sut.create(PARTNER, key, BODY));

      expect(error).toMatchObject({
        code: ErrorCode.IdempotencyKeyInUse,
        status: 409,
        param: 'Idempotency-Key',
      });
      expect(provider.creates).toHaveLength(0);
      expect(idempotency.row(key)).toMatchObject({ state: 'pending', locked: true });
    });

    it('replays the first request once it finishes while a duplicate waits', async () => {
      const key = randomUUID();
      const first = await sut.create(PARTNER, randomUUID(), BODY);
      await idempotency.reserve(PARTNER.credentialId, key, bodyFingerprint(BODY));
      const row = idempotency.row(key);
      idempotency.onBusy = () => {
        Object.assign(row ?? {}, {
          state: 'completed',
          swapId: first.swap.id,
          response: first.swap,
        });
      };

      const duplicate = await sut.create(PARTNER, key, BODY);

      expect(duplicate).toEqual({ swap: first.swap, replayed: true });
      expect(provider.creates).toHaveLength(1);
    });

    it('gives the key back when the provider refused the create, so a retry creates afresh', async () => {
      const key = randomUUID();
      provider.nextCreate = mapRpcError('createTransaction', -32600, 'Pair is not processable');

      const error = await failure(sut.create(PARTNER, key, BODY));

      expect(error).toMatchObject({
        code: ErrorCode.ExchangeNotProcessable,
        status: 422,
        message: 'Pair is not processable',
      });
      expect(idempotency.row(key)).toBeUndefined();

      await sut.create(PARTNER, key, BODY);
      expect(provider.lookups).toHaveLength(0);
      expect(provider.creates).toHaveLength(2);
    });
  });

  describe('keys in Redis, Postgres deciding', () => {
    /** Holds the next create call until the returned function is called. */
    function holdNextCreate(): () => void {
      let release!: () => void;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      const create = provider.createTransaction.bind(provider);
      jest.spyOn(provider, 'createTransaction').mockImplementationOnce(async (request) => {
        await held;
        return create(request);
      });
      return release;
    }

    async function claimedInPostgres(key: string): Promise<void> {
      while (idempotency.row(key) === undefined) {
        await sleep(5);
      }
    }

    it('answers a replay from Redis alone, without a claim in Postgres', async () => {
      const key = randomUUID();
      const first = await sut.create(PARTNER, key, BODY);
      const reserve = jest.spyOn(idempotency, 'reserve');

      const replay = await sut.create(PARTNER, key, BODY);

      expect(replay).toEqual({ swap: first.swap, replayed: true });
      expect(reserve).not.toHaveBeenCalled();
    });

    it('makes a duplicate wait on the hold in Redis, then replays the first', async () => {
      const key = randomUUID();
      const release = holdNextCreate();
      const first = sut.create(PARTNER, key, BODY);
      await claimedInPostgres(key);
      const reserve = jest.spyOn(idempotency, 'reserve');

      const duplicate = sut.create(PARTNER, key, BODY);
      await sleep(300);
      expect(reserve).not.toHaveBeenCalled();
      release();

      expect(await duplicate).toEqual({ swap: (await first).swap, replayed: true });
      expect(provider.creates).toHaveLength(1);
    });

    it('refuses another body at once while the first request still runs', async () => {
      const key = randomUUID();
      const release = holdNextCreate();
      const first = sut.create(PARTNER, key, BODY);
      await claimedInPostgres(key);

      const error = await failure(sut.create(PARTNER, key, { ...BODY, amountFrom: '0.2' }));
      release();
      await first;

      expect(error).toMatchObject({ code: ErrorCode.IdempotencyKeyMismatch, status: 409 });
      expect(provider.creates).toHaveLength(1);
    });

    it('replays from Postgres on a replica whose Redis lost the key, and remembers it there', async () => {
      const key = randomUUID();
      const first = await sut.create(PARTNER, key, BODY);
      const flushed = new MemoryStore();
      const replica = await creationService(flushed);
      const reserve = jest.spyOn(idempotency, 'reserve');

      const replays = [
        await replica.create(PARTNER, key, BODY),
        await replica.create(PARTNER, key, BODY),
      ];
      await flushed.close();

      expect(replays).toEqual([
        { swap: first.swap, replayed: true },
        { swap: first.swap, replayed: true },
      ]);
      expect(reserve).toHaveBeenCalledTimes(1);
      expect(provider.creates).toHaveLength(1);
    });

    it('creates once and replays with Redis down: Postgres decides alone', async () => {
      const down = new Error('connect ECONNREFUSED 127.0.0.1:6379');
      jest.spyOn(store, 'claim').mockRejectedValue(down);
      jest.spyOn(store, 'set').mockRejectedValue(down);
      jest.spyOn(store, 'deleteIf').mockRejectedValue(down);
      const key = randomUUID();

      const first = await sut.create(PARTNER, key, BODY);
      const replay = await sut.create(PARTNER, key, BODY);
      const other = await failure(sut.create(PARTNER, key, { ...BODY, amountFrom: '0.2' }));

      expect(replay).toEqual({ swap: first.swap, replayed: true });
      expect(other.code).toBe(ErrorCode.IdempotencyKeyMismatch);
      expect(provider.creates).toHaveLength(1);
    });

    it('gives the hold in Redis back after a lost answer, so the retry settles it at once', async () => {
      const key = randomUUID();
      provider.nextCreate = 'lose-answer';
      await failure(sut.create(PARTNER, key, BODY));

      const started = Date.now();
      const retried = await sut.create(PARTNER, key, BODY);

      expect(Date.now() - started).toBeLessThan(5_000);
      expect(retried.replayed).toBe(false);
      expect(provider.creates).toHaveLength(1);
      expect(provider.lookups).toHaveLength(1);
    });
  });
  describe('across two providers', () => {
    let changenow: FakeLiquidityProvider;

    /** Changenow quotes better than Changelly, so a float swap goes there first. */
    beforeEach(async () => {
      changenow = new FakeLiquidityProvider('cn', 'changenow', false);
      changenow.quoteOutcome = { amountTo: '1.6', networkFee: '0.001' };
      provider.quoteOutcome = { amountTo: '1.5', networkFee: '0.001' };
      sut = await creationService(store, [provider, changenow]);
    });

    const refused = (code: ErrorCode, delivery: 'not_sent' | 'refused'): ProviderError =>
      new ProviderError(code, 'refused', { method: 'exchange', delivery });

    it('creates a float swap at the provider whose quote gives the user the most', async () => {
      const created = await sut.create(PARTNER, randomUUID(), BODY);

      expect(changenow.creates).toHaveLength(1);
      expect(provider.creates).toHaveLength(0);
      expect(swaps.stored[0]).toMatchObject({
        id: created.swap.id,
        provider: 'changenow',
        providerTransactionId: 'tx-1',
      });
      expect(created.swap).not.toHaveProperty('provider');
    });

    it.each([
      ['a refused connection', refused(ErrorCode.UpstreamUnavailable, 'not_sent')],
      ['its rate limit', refused(ErrorCode.UpstreamRateLimited, 'refused')],
      ['an amount outside its range', refused(ErrorCode.AmountAboveMax, 'refused')],
      ['an inactive pair', refused(ErrorCode.PairUnsupported, 'refused')],
    ])('moves on to the next-best provider after %s', async (_, error) => {
      changenow.nextCreate = error;
      const key = randomUUID();

      const created = await sut.create(PARTNER, key, BODY);

      expect(changenow.creates).toHaveLength(1);
      expect(provider.creates).toHaveLength(1);
      expect(swaps.stored.map((s) => s.provider)).toEqual(['changelly']);
      expect(idempotency.row(key)).toMatchObject({ state: 'completed', swapId: created.swap.id });
    });

    it('answers an address the provider refused as the partner’s error, asking no other', async () => {
      changenow.nextCreate = mapRpcError('exchange', -32602, 'Invalid address');

      const error = await failure(sut.create(PARTNER, randomUUID(), BODY));

      expect(error.code).toBe(ErrorCode.InvalidRequest);
      expect(provider.creates).toHaveLength(0);
      expect(swaps.stored).toHaveLength(0);
    });

    it('tries no other provider after a timeout, and the retry resolves it at the first', async () => {
      changenow.nextCreate = 'lose-answer';
      const key = randomUUID();

      await failure(sut.create(PARTNER, key, BODY));
      expect(provider.creates).toHaveLength(0);
      expect(idempotency.row(key)?.attempt).toMatchObject({ provider: 'changenow' });

      const retried = await sut.create(PARTNER, key, BODY);

      expect(changenow.creates).toHaveLength(1);
      expect(provider.creates).toHaveLength(0);
      expect(provider.lookups).toEqual([]);
      expect(changenow.lookups).toHaveLength(1);
      expect(swaps.stored.map((s) => [s.id, s.provider])).toEqual([[retried.swap.id, 'changenow']]);
    });

    it('creates a fixed swap only at its rate’s provider, never another', async () => {
      const rate = fixedRates.quote(PARTNER, { provider: 'changenow' });
      changenow.nextCreate = refused(ErrorCode.UpstreamRateLimited, 'refused');

      const error = await failure(
        sut.create(PARTNER, randomUUID(), {
          ...BODY,
          mode: 'fixed',
          rateId: rate.id,
          refundAddress: ADDRESSES.btc,
        }),
      );

      expect(error.code).toBe(ErrorCode.UpstreamRateLimited);
      expect(changenow.creates).toHaveLength(1);
      expect(provider.creates).toHaveLength(0);
    });
  });
});
