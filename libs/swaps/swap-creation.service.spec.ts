import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { Test } from '@nestjs/testing';
import { getDataSourceToken } from '@nestjs/typeorm';
import { CatalogueService, type ResolvedPair } from '#app/catalogue';
import { AppError, ErrorCode } from '#app/errors';
import { EventRecorder } from '#app/events';
import type { AuthenticatedPartner } from '#app/partners';
import type { FixedRateEntity, SwapEntity } from '#app/persistence';
import {
  LIQUIDITY_PROVIDER,
  ProviderError,
  mapRpcError,
  unavailable,
  type CreateFixedTransactionRequest,
  type CreateTransactionRequest,
  type LiquidityProvider,
  type ProviderCurrency,
  type ProviderTransaction,
  type TransactionQuery,
} from '#app/provider';
import { FixedRatesRepository } from '#app/quotes';
import type { CreateSwapInput } from './create-swap.input.js';
import {
  IdempotencyRepository,
  type Reservation,
  type UpstreamAttempt,
} from './idempotency.repository.js';
import { bodyFingerprint } from './idempotency-key.js';
import { KeyReservations, SWAP_CREATION_OPTIONS } from './key-reservations.js';
import { SwapCreationService } from './swap-creation.service.js';
import { SwapPersistence } from './swap-persistence.js';
import { SwapPricing } from './swap-pricing.js';
import { swapViewRow, type SwapViewRow } from './swap.view.js';
import { SwapViewsRepository } from './swap-views.repository.js';
import { SwapsRepository } from './swaps.repository.js';
import { UpstreamAttempts } from './upstream-attempts.js';

const PAYOUT = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

interface KeyRow {
  id: string;
  credentialId: string;
  key: string;
  fingerprint: string;
  state: 'pending' | 'completed';
  swapId: string | null;
  attempt: UpstreamAttempt | null;
  locked: boolean;
}

/** `idempotency_keys` in memory, with the repository's rules for claims and attempts. */
class FakeIdempotency {
  readonly rows: KeyRow[] = [];
  /** Called each time a request finds its key held by another one still running. */
  onBusy: () => void = () => undefined;

  row(key: string): KeyRow | undefined {
    return this.rows.find((r) => r.key === key);
  }

  reserve(credentialId: string, key: string, fingerprint: string): Promise<Reservation> {
    const row = this.rows.find((r) => r.credentialId === credentialId && r.key === key);
    if (!row) {
      const id = randomUUID();
      this.rows.push({
        id,
        credentialId,
        key,
        fingerprint,
        state: 'pending',
        swapId: null,
        attempt: null,
        locked: true,
      });
      return Promise.resolve({ outcome: 'acquired', id, previousAttempt: null });
    }
    if (row.fingerprint !== fingerprint) {
      return Promise.resolve({ outcome: 'mismatch' });
    }
    if (row.state === 'completed' && row.swapId) {
      return Promise.resolve({ outcome: 'replay', swapId: row.swapId });
    }
    if (row.locked) {
      this.onBusy();
      return Promise.resolve({ outcome: 'busy' });
    }
    row.locked = true;
    return Promise.resolve({ outcome: 'acquired', id: row.id, previousAttempt: row.attempt });
  }

  /** Replays here take the reservation path; the one-read path is in test/swaps.e2e-spec.ts. */
  findCompleted(): Promise<null> {
    return Promise.resolve(null);
  }

  recordAttempt(id: string, attempt: UpstreamAttempt): Promise<void> {
    this.byId(id).attempt = attempt;
    return Promise.resolve();
  }

  complete(_manager: unknown, id: string, swapId: string): Promise<void> {
    Object.assign(this.byId(id), { state: 'completed', swapId, locked: false });
    return Promise.resolve();
  }

  release(id: string): Promise<void> {
    const index = this.rows.findIndex((r) => r.id === id && r.state === 'pending');
    if (index >= 0) {
      this.rows.splice(index, 1);
    }
    return Promise.resolve();
  }

  clearAttempt(id: string): Promise<void> {
    this.byId(id).attempt = null;
    return Promise.resolve();
  }

  unlockForReconciliation(id: string): Promise<boolean> {
    const row = this.rows.find((r) => r.id === id);
    if (!row || row.state !== 'pending' || row.attempt === null) {
      return Promise.resolve(false);
    }
    row.locked = false;
    return Promise.resolve(true);
  }

  private byId(id: string): KeyRow {
    const row = this.rows.find((r) => r.id === id);
    if (!row) {
      throw new Error(`no key row ${id}`);
    }
    return row;
  }
}

/** The event recorder: what `swap.created` events were recorded, of which swap. */
class FakeEvents {
  readonly created: { organizationId: string; swap: { id: string; status: string } }[] = [];

  swapCreated(
    _manager: unknown,
    organizationId: string,
    swap: { id: string; status: string },
  ): Promise<void> {
    this.created.push({ organizationId, swap });
    return Promise.resolve();
  }
}

/** `swaps` in memory. */
class FakeSwaps {
  readonly stored: SwapEntity[] = [];
  /** The next insert fails with this, as when Postgres goes away after the provider answered. */
  insertFailure: Error | null = null;

  insert(_manager: unknown, swap: SwapEntity): Promise<void> {
    const failure = this.insertFailure;
    this.insertFailure = null;
    if (failure) {
      return Promise.reject(failure);
    }
    this.stored.push(swap);
    return Promise.resolve();
  }

  findByIdForOrg(
    id: string,
    owner: { organizationId: string; livemode: boolean },
  ): Promise<SwapEntity | null> {
    const swap = this.stored.find(
      (s) =>
        s.id === id && s.organizationId === owner.organizationId && s.livemode === owner.livemode,
    );
    return Promise.resolve(swap ?? null);
  }

  async findViewByIdForOrg(
    id: string,
    owner: { organizationId: string; livemode: boolean },
  ): Promise<SwapViewRow | null> {
    const swap = await this.findByIdForOrg(id, owner);
    return swap && swapViewRow(swap);
  }

  isHeld(providerTransactionId: string): Promise<boolean> {
    return Promise.resolve(
      this.stored.some((s) => s.providerTransactionId === providerTransactionId),
    );
  }
}

/** `fixed_rates` in memory: a rate is spent once, by the first swap that takes it. */
class FakeFixedRates {
  readonly rates: FixedRateEntity[] = [];

  quote(): FixedRateEntity {
    const rate = {
      id: randomUUID(),
      providerRateId: `provider-${this.rates.length + 1}`,
      organizationId: PARTNER.organizationId,
      livemode: true,
      from: 'btc',
      to: 'eth',
      amountFrom: '0.1',
      amountTo: '1.51',
      networkFee: '0.002',
      rate: '15.1',
      expiresAt: new Date(Date.now() + 60_000),
      usedAt: null,
      swapId: null,
    } as FixedRateEntity;
    this.rates.push(rate);
    return rate;
  }

  findForOwner(id: string, owner: { organizationId: string }): Promise<FixedRateEntity | null> {
    const rate = this.rates.find((r) => r.id === id && r.organizationId === owner.organizationId);
    return Promise.resolve(rate ?? null);
  }

  consume(id: string, _owner: unknown, swapId: string): Promise<boolean> {
    const rate = this.rates.find((r) => r.id === id && r.usedAt === null);
    if (rate) {
      Object.assign(rate, { usedAt: new Date(), swapId });
    }
    return Promise.resolve(rate !== undefined);
  }
}

/**
 * A provider that keeps the transactions it created, so an answer lost on the way back still
 * left its transaction behind, as with the real one.
 */
class LedgerProvider implements LiquidityProvider {
  readonly id = 'ledger';
  readonly created: ProviderTransaction[] = [];
  readonly creates: (CreateTransactionRequest | CreateFixedTransactionRequest)[] = [];
  readonly lookups: TransactionQuery[] = [];
  /** What the next create does after (or instead of) creating. */
  nextCreate: 'answer' | 'lose-answer' | 'time-out-before-creating' | ProviderError = 'answer';
  /** The next lookups fail with this, while set. */
  lookupFailure: ProviderError | null = null;
  /** Transactions of other clients to the same payout address, listed before ours. */
  strangers: ProviderTransaction[] = [];

  createTransaction(request: CreateTransactionRequest): Promise<ProviderTransaction> {
    this.creates.push(request);
    const outcome = this.nextCreate;
    this.nextCreate = 'answer';
    if (outcome instanceof ProviderError) {
      return Promise.reject(outcome);
    }
    if (outcome === 'time-out-before-creating') {
      return Promise.reject(timedOut('createTransaction'));
    }
    const tx = transaction({
      id: `tx-${this.created.length + 1}`,
      from: request.from,
      to: request.to,
      amountExpectedFrom: request.amountFrom,
      payoutAddress: request.address,
      userMetadata: request.userMetadata ?? null,
    });
    this.created.push(tx);
    return outcome === 'lose-answer'
      ? Promise.reject(timedOut('createTransaction'))
      : Promise.resolve(tx);
  }

  getTransactions(query: TransactionQuery): Promise<ProviderTransaction[]> {
    this.lookups.push(query);
    if (this.lookupFailure) {
      return Promise.reject(this.lookupFailure);
    }
    if ('ids' in query) {
      return Promise.reject(new Error('creation looks up by payout address'));
    }
    const offset = query.offset ?? 0;
    const listing = [...this.strangers, ...[...this.created].reverse()].filter(
      (tx) => tx.payoutAddress === query.payoutAddress,
    );
    return Promise.resolve(listing.slice(offset, offset + (query.limit ?? 10)));
  }

  createFixedTransaction(request: CreateFixedTransactionRequest): Promise<ProviderTransaction> {
    return this.createTransaction(request);
  }
  getCurrencies(): Promise<ProviderCurrency[]> {
    return Promise.reject(new Error('not used'));
  }
  getPairParams(): Promise<never> {
    return Promise.reject(new Error('not used'));
  }
  getFloatQuote(): Promise<never> {
    return Promise.reject(new Error('not used'));
  }
  getFixedQuote(): Promise<never> {
    return Promise.reject(new Error('not used'));
  }
  validateAddress(): Promise<never> {
    return Promise.reject(new Error('not used'));
  }
}

function timedOut(method: string): ProviderError {
  return unavailable(method, 'timeout after 1000 ms');
}

function transaction(fields: Partial<ProviderTransaction>): ProviderTransaction {
  return {
    id: 'tx',
    status: 'waiting',
    from: 'btc',
    to: 'eth',
    payinAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    payoutAddress: PAYOUT,
    refundAddress: null,
    userMetadata: null,
    amountExpectedFrom: '0.1',
    amountExpectedTo: '1.5',
    networkFee: '0.002',
    rate: '15.2',
    payTill: null,
    createdAt: new Date().toISOString(),
    payinHash: null,
    payoutHash: null,
    amountActualFrom: null,
    amountActualTo: null,
    actualNetworkFee: null,
    moneyReceivedAt: null,
    moneySentAt: null,
    ...fields,
  };
}

function currency(ticker: string, blockchain: string, precision: number): ProviderCurrency {
  return {
    ticker,
    fullName: ticker,
    enabled: true,
    enabledFrom: true,
    enabledTo: true,
    fixRateEnabled: true,
    payinConfirmations: 1,
    extraIdName: null,
    image: null,
    blockchain,
    blockchainPrecision: precision,
  };
}

const BTC_ETH: ResolvedPair = {
  from: currency('btc', 'bitcoin', 8),
  to: currency('eth', 'ethereum', 18),
  params: {
    from: 'btc',
    to: 'eth',
    minAmountFloat: '0.001',
    maxAmountFloat: '20',
    minAmountFixed: '0.002',
    maxAmountFixed: '10',
  },
};

const PARTNER: AuthenticatedPartner = {
  credentialId: 'cred-1',
  publicKey: 'pk_live_x',
  organizationId: 'org-1',
  livemode: true,
  organizationStatus: 'active',
  feePercent: '0.5',
  providerActivated: true,
};

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
  let idempotency: FakeIdempotency;
  let swaps: FakeSwaps;
  let events: FakeEvents;
  let provider: LedgerProvider;
  let fixedRates: FakeFixedRates;
  let pairs: string[][];
  let sut: SwapCreationService;

  beforeEach(async () => {
    idempotency = new FakeIdempotency();
    swaps = new FakeSwaps();
    events = new FakeEvents();
    provider = new LedgerProvider();
    fixedRates = new FakeFixedRates();
    pairs = [];
    const moduleRef = await Test.createTestingModule({
      providers: [
        SwapCreationService,
        KeyReservations,
        UpstreamAttempts,
        SwapPricing,
        SwapPersistence,
        {
          provide: CatalogueService,
          useValue: {
            pair: (from: string, to: string) => {
              pairs.push([from, to]);
              return Promise.resolve(BTC_ETH);
            },
          },
        },
        { provide: FixedRatesRepository, useValue: fixedRates },
        { provide: IdempotencyRepository, useValue: idempotency },
        { provide: SwapsRepository, useValue: swaps },
        { provide: SwapViewsRepository, useValue: swaps },
        { provide: EventRecorder, useValue: events },
        { provide: LIQUIDITY_PROVIDER, useValue: provider },
        {
          provide: getDataSourceToken(),
          useValue: { transaction: (work: (manager: object) => Promise<void>) => work({}) },
        },
        { provide: SWAP_CREATION_OPTIONS, useValue: { providerTimeoutMs: 1000 } },
      ],
    }).compile();
    sut = moduleRef.get(SwapCreationService);
  });

  afterEach(() => {
    jest.restoreAllMocks();
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
    expect(events.created).toEqual([
      { organizationId: PARTNER.organizationId, swap: created.swap },
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
      provider.strangers = [transaction({ id: 'tx-stranger', userMetadata: 'attempt:other' })];

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
      expect(events.created.map((e) => e.swap.id)).toEqual([retried.swap.id]);

      const again = await sut.create(PARTNER, key, BODY);
      expect(again).toEqual({ swap: retried.swap, replayed: true });
      expect(provider.creates).toHaveLength(1);
      expect(events.created).toHaveLength(1);
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
      provider.strangers = Array.from({ length: 100 }, (_, i) =>
        transaction({ id: `tx-other-${i}`, userMetadata: `attempt:other-${i}` }),
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
      provider.lookupFailure = timedOut('getTransactions');

      const error = await failure(sut.create(PARTNER, key, BODY));

      expect(error).not.toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({ code: ErrorCode.UpstreamUnavailable, status: 503 });
      expect(error.message).toContain('Retry with the same Idempotency-Key');
      expect(provider.creates).toHaveLength(1);
      expect(swaps.stored).toHaveLength(0);
      expect(idempotency.row(key)).toMatchObject({ state: 'pending', locked: false, attempt });

      provider.lookupFailure = null;
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
      refundAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    });

    it('is created on its quote, which it spends', async () => {
      const rate = fixedRates.quote();

      const created = await sut.create(PARTNER, randomUUID(), fixedBody(rate.id));

      expect(provider.creates[0]).toMatchObject({ rateId: rate.providerRateId });
      expect(created.swap).toMatchObject({ mode: 'fixed', amountExpectedTo: '1.508' });
      expect(rate).toMatchObject({ swapId: created.swap.id, usedAt: expect.any(Date) as Date });
    });

    it('is found by the retry after a lost answer, on the terms of its quote', async () => {
      const rate = fixedRates.quote();
      const key = randomUUID();
      provider.nextCreate = 'lose-answer';
      await failure(sut.create(PARTNER, key, fixedBody(rate.id)));

      const retried = await sut.create(PARTNER, key, fixedBody(rate.id));

      expect(provider.creates).toHaveLength(1);
      expect(retried.swap).toMatchObject({ mode: 'fixed', amountExpectedTo: '1.508' });
    });

    it('needs a new quote once a lookup proves its spent rate created nothing', async () => {
      // docs/decisions.md, "Fixed rates are spent when a swap takes them".
      const rate = fixedRates.quote();
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
        { address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' },
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
        { mode: 'fixed', refundAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' },
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
      expect(pairs).toHaveLength(0);
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
        Object.assign(row ?? {}, { state: 'completed', swapId: first.swap.id });
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
});
