import { Inject, Injectable } from '@nestjs/common';
import { Decimal } from 'decimal.js';
import { base58 } from '@scure/base';
import { type ProviderStatus, isDecimalString, type SwapMode } from '#app/domain';
import { generateAddress, validateAddress, type Chain } from '#app/chains';
import { APP_CONFIG, type SandboxConfig } from '#app/config';
import { AppError, ErrorCode } from '#app/errors';
import type {
  WireAddressValidation,
  WireCreatedTransaction,
  WireCurrency,
  WireFixedQuote,
  WireFloatQuote,
  WirePairParams,
  WireTransaction,
} from '#app/provider';
import { CATALOGUE, type SandboxCurrency } from './catalogue.js';
import { Market } from './market.js';
import { INVALID_PARAMS, INVALID_REQUEST, RpcFailure } from './rpc-failure.js';
import { SANDBOX_OPTIONS, type ResolvedSandboxOptions } from './sandbox.options.js';
import { SeededRandom } from './seeded-random.js';

type Params = Record<string, unknown>;

interface FixedRate {
  id: string;
  from: string;
  to: string;
  amountFrom: Decimal;
  rate: Decimal;
  amountTo: Decimal;
  networkFee: Decimal;
  expiresAtMs: number;
  used: boolean;
}

interface Deposit {
  amount: Decimal;
  atMs: number;
  hash: string;
}

/** The lifecycle after a deposit, one step per `stepMs`. */
const STEPS = ['confirming', 'exchanging', 'sending', 'finished'] as const;
type Step = (typeof STEPS)[number];

interface SandboxTransaction {
  id: string;
  type: SwapMode;
  from: SandboxCurrency;
  to: SandboxCurrency;
  payinAddress: string;
  payoutAddress: string;
  refundAddress: string | null;
  amountExpectedFrom: Decimal;
  amountExpectedTo: Decimal;
  networkFee: Decimal;
  rate: Decimal;
  createdAtMs: number;
  payTillMs: number | null;
  status: ProviderStatus;
  /** Running lifecycle: the step entered at `sinceMs`; null when the status is frozen. */
  clock: { step: Step; sinceMs: number } | null;
  deposit: Deposit | null;
  /** Decided at deposit time, reported once the payout is sent. */
  payout: { amount: Decimal; hash: string } | null;
  moneySentMs: number | null;
}

/** The internal view `GET /sandbox/transactions/:id` answers. */
export interface SandboxTransactionView extends WireTransaction {
  clock: { step: Step; sinceMs: number } | null;
}

const EVM_CHAINS = new Set<Chain>([
  'ethereum',
  'ethereum_classic',
  'binance_smart_chain',
  'polygon',
]);
const MIN_PREFIX = 'Invalid amount: minimal amount is';
const MAX_PREFIX = 'Invalid amount: maximal amount is';

function seconds(ms: number): number {
  return Math.floor(ms / 1000);
}

function text(params: Params, key: string): string | undefined {
  const value = params[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The sandbox exchange: catalogue, quotes, fixed rates, transactions and their lifecycle.
 * All state is in memory and every random choice comes from the configured seed.
 */
@Injectable()
export class ExchangeService {
  private readonly currencies = new Map(CATALOGUE.map((c) => [c.ticker, c]));
  private readonly market: Market;
  private random: SeededRandom;
  private readonly transactions = new Map<string, SandboxTransaction>();
  private readonly rates = new Map<string, FixedRate>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: SandboxConfig,
    @Inject(SANDBOX_OPTIONS) private readonly options: ResolvedSandboxOptions,
  ) {
    this.random = new SeededRandom(config.seed);
    this.market = new Market(CATALOGUE, config.seed, options.priceStepMs, Date.now());
  }

  reset(): void {
    this.random = new SeededRandom(this.config.seed);
    this.market.reset(Date.now());
    this.transactions.clear();
    this.rates.clear();
  }

  getCurrenciesFull(): WireCurrency[] {
    return CATALOGUE.map((c) => ({
      ticker: c.ticker,
      fullName: c.fullName,
      enabled: c.enabled,
      enabledFrom: c.enabledFrom,
      enabledTo: c.enabledTo,
      fixRateEnabled: c.fixRateEnabled,
      payinConfirmations: c.payinConfirmations,
      extraIdName: c.extraIdName,
      addressUrl: `https://explorer.sandbox.invalid/${c.blockchain}/address/%1$s`,
      transactionUrl: `https://explorer.sandbox.invalid/${c.blockchain}/tx/%1$s`,
      image: c.ticker === 'etc' ? null : `https://static.sandbox.invalid/coins/${c.ticker}.svg`,
      fixedTime: 1_200_000,
      protocol: c.protocol,
      blockchain: c.blockchain,
      blockchainPrecision: c.precision,
      ...(c.contractAddress ? { contractAddress: c.contractAddress } : {}),
    }));
  }

  getPairsParams(params: unknown): WirePairParams[] {
    const now = Date.now();
    return this.items(params).map((item) => {
      const [from, to] = this.pair(item.from, item.to, 'float');
      const bounds = this.market.bounds(from, now);
      const fixed = from.fixRateEnabled && to.fixRateEnabled;
      return {
        from: from.ticker,
        to: to.ticker,
        minAmountFloat: bounds.minFloat.toFixed(),
        maxAmountFloat: bounds.maxFloat.toFixed(),
        minAmountFixed: fixed ? bounds.minFixed.toFixed() : '0',
        maxAmountFixed: fixed ? bounds.maxFixed.toFixed() : '0',
      };
    });
  }

  getExchangeAmount(params: unknown): WireFloatQuote[] {
    const now = Date.now();
    return this.items(params).map((item) => {
      const [from, to] = this.pair(item.from, item.to, 'float');
      const amountFrom = this.amount(item.amountFrom, from);
      const bounds = this.market.bounds(from, now);
      this.checkBounds(amountFrom, bounds.minFloat, bounds.maxFloat);
      const price = this.market.floatPrice(from, to, amountFrom, now);
      return {
        from: from.ticker,
        to: to.ticker,
        amountFrom: amountFrom.toFixed(),
        amountTo: price.amountTo.toFixed(),
        networkFee: price.networkFee.toFixed(),
        rate: price.rate.toFixed(),
        fee: price.fee.toFixed(),
        min: bounds.minFloat.toFixed(),
        max: bounds.maxFloat.toFixed(),
        minFrom: bounds.minFloat.toFixed(),
        maxFrom: bounds.maxFloat.toFixed(),
        visibleAmount: price.amountTo.toFixed(),
      };
    });
  }

  getFixRateForAmount(params: unknown): WireFixedQuote[] {
    const now = Date.now();
    return this.items(params).map((item) => {
      const [from, to] = this.pair(item.from, item.to, 'fixed');
      const amountFrom = this.amount(item.amountFrom, from);
      const bounds = this.market.bounds(from, now);
      this.checkBounds(amountFrom, bounds.minFixed, bounds.maxFixed);
      const price = this.market.fixedPrice(from, to, amountFrom, now);
      const rate: FixedRate = {
        id: this.random.alphanumeric(32),
        from: from.ticker,
        to: to.ticker,
        amountFrom,
        rate: price.rate,
        amountTo: price.amountTo,
        networkFee: price.networkFee,
        expiresAtMs: now + this.options.rateTtlMs,
        used: false,
      };
      this.rates.set(rate.id, rate);
      return {
        id: rate.id,
        result: price.rate.toFixed(),
        from: from.ticker,
        to: to.ticker,
        amountFrom: amountFrom.toFixed(),
        amountTo: price.amountTo.toFixed(),
        networkFee: price.networkFee.toFixed(),
        min: bounds.minFixed.toFixed(),
        max: bounds.maxFixed.toFixed(),
        expiredAt: seconds(rate.expiresAtMs),
      };
    });
  }

  createTransaction(params: unknown): WireCreatedTransaction {
    const now = Date.now();
    const p = this.object(params);
    const [from, to] = this.pair(p.from, p.to, 'float');
    const amountFrom = this.amount(p.amountFrom, from);
    const bounds = this.market.bounds(from, now);
    this.checkBounds(amountFrom, bounds.minFloat, bounds.maxFloat);
    const address = this.address(to, text(p, 'address'), 'Invalid address');
    const refund = text(p, 'refundAddress');
    const refundAddress =
      refund === undefined ? null : this.address(from, refund, 'Invalid refund address');
    const price = this.market.floatPrice(from, to, amountFrom, now);
    const expectedTo = price.amountTo.minus(price.networkFee);
    if (expectedTo.lte(0)) {
      throw new RpcFailure(INVALID_REQUEST, `${MIN_PREFIX} ${bounds.minFloat.toFixed()}`);
    }
    return this.wireCreated(
      this.store({
        type: 'float',
        from,
        to,
        payoutAddress: address,
        refundAddress,
        amountExpectedFrom: amountFrom,
        amountExpectedTo: expectedTo,
        networkFee: price.networkFee,
        rate: price.rate,
        payTillMs: null,
        now,
      }),
    );
  }

  createFixTransaction(params: unknown): WireCreatedTransaction {
    const now = Date.now();
    const p = this.object(params);
    const rate = this.rates.get(text(p, 'rateId') ?? '');
    if (!rate || rate.used || now >= rate.expiresAtMs) {
      throw new RpcFailure(INVALID_PARAMS, 'rateId was expired or already used');
    }
    const [from, to] = this.pair(p.from, p.to, 'fixed');
    if (from.ticker !== rate.from || to.ticker !== rate.to) {
      throw new RpcFailure(INVALID_PARAMS, 'Invalid currency pair: it does not match the rateId');
    }
    const amountFrom = this.amount(p.amountFrom, from);
    if (!amountFrom.eq(rate.amountFrom)) {
      throw new RpcFailure(
        INVALID_PARAMS,
        'Invalid amount: amountFrom does not match the quoted amount',
      );
    }
    const address = this.address(to, text(p, 'address'), 'Invalid address');
    const refundAddress = this.address(from, text(p, 'refundAddress'), 'Invalid refund address');
    const expectedTo = rate.amountTo.minus(rate.networkFee);
    if (expectedTo.lte(0)) {
      throw new RpcFailure(
        INVALID_REQUEST,
        `${MIN_PREFIX} ${this.market.bounds(from, now).minFixed.toFixed()}`,
      );
    }
    rate.used = true;
    return this.wireCreated(
      this.store({
        type: 'fixed',
        from,
        to,
        payoutAddress: address,
        refundAddress,
        amountExpectedFrom: amountFrom,
        amountExpectedTo: expectedTo,
        networkFee: rate.networkFee,
        rate: rate.rate,
        payTillMs: now + this.options.fixedPayWindowMs,
        now,
      }),
    );
  }

  getTransactions(params: unknown): WireTransaction[] {
    const p = this.object(params);
    const ids = this.ids(p.id);
    const limit = this.integer(p.limit, 10, 1, 100, 'limit');
    const offset = this.integer(p.offset, 0, 0, Number.MAX_SAFE_INTEGER, 'offset');
    const payoutAddress = text(p, 'payoutAddress');
    const now = Date.now();
    return [...this.transactions.values()]
      .filter((tx) => ids === null || ids.includes(tx.id))
      .filter((tx) => payoutAddress === undefined || tx.payoutAddress === payoutAddress)
      .reverse()
      .slice(offset, offset + limit)
      .map((tx) => this.wire(this.advance(tx, now)));
  }

  /** Number of ids a getTransactions call asks for, for the stats; null for other shapes. */
  idsRequested(params: unknown): number | null {
    if (params === null || typeof params !== 'object' || Array.isArray(params)) {
      return null;
    }
    const id = (params as Params).id;
    return Array.isArray(id) ? id.length : typeof id === 'string' ? 1 : null;
  }

  getStatus(params: unknown): ProviderStatus {
    const tx = this.transactions.get(text(this.object(params), 'id') ?? '');
    if (!tx) {
      throw new RpcFailure(INVALID_PARAMS, 'Invalid parameter id: transaction not found');
    }
    return this.advance(tx, Date.now()).status;
  }

  validateAddress(params: unknown): WireAddressValidation {
    const p = this.object(params);
    const currency = this.currency(p.currency);
    const check = validateAddress(currency.blockchain, text(p, 'address') ?? '');
    return check.valid
      ? { result: true }
      : { result: false, message: check.reason ?? 'Invalid address' };
  }

  /** Control API: the user's deposit arrives now (or, with `late`, after the deadline). */
  deposit(id: string, amount: string | undefined, late: boolean): SandboxTransactionView {
    const now = Date.now();
    const tx = this.advance(this.find(id), now);
    if (tx.status !== 'new' && tx.status !== 'waiting') {
      throw new AppError(
        ErrorCode.InvalidRequest,
        `Transaction ${id} is ${tx.status}, not awaiting a deposit.`,
        {
          param: 'id',
        },
      );
    }
    const received = amount === undefined ? tx.amountExpectedFrom : new Decimal(amount);
    tx.deposit = { amount: received, atMs: now, hash: this.hash(tx.from.blockchain) };
    const short = received.lt(tx.amountExpectedFrom);
    const pastDeadline = late || (tx.payTillMs !== null && now > tx.payTillMs);
    if (tx.type === 'fixed' && (short || pastDeadline)) {
      return this.freeze(tx, 'expired');
    }
    if (tx.type === 'float' && late) {
      return this.freeze(tx, 'overdue');
    }
    tx.payout = { amount: this.payoutFor(tx, received, now), hash: this.hash(tx.to.blockchain) };
    tx.status = 'confirming';
    tx.clock = { step: 'confirming', sinceMs: now };
    return this.view(tx);
  }

  /** Control API: any status, now. Lifecycle steps resume the clock; others freeze it. */
  forceStatus(id: string, status: ProviderStatus): SandboxTransactionView {
    const now = Date.now();
    const tx = this.advance(this.find(id), now);
    const step = (STEPS as readonly string[]).includes(status) ? (status as Step) : null;
    if (step !== null || status === 'refunded') {
      tx.deposit ??= {
        amount: tx.amountExpectedFrom,
        atMs: now,
        hash: this.hash(tx.from.blockchain),
      };
    }
    if (step !== null && tx.deposit !== null) {
      tx.payout ??= {
        amount: this.payoutFor(tx, tx.deposit.amount, now),
        hash: this.hash(tx.to.blockchain),
      };
    }
    if (step === null || step === 'finished') {
      if (step === 'finished') {
        tx.moneySentMs ??= now;
      }
      return this.freeze(tx, status);
    }
    tx.status = step;
    tx.clock = { step, sinceMs: now };
    if (step === 'sending') {
      tx.moneySentMs ??= now;
    }
    return this.view(tx);
  }

  view(txOrId: SandboxTransaction | string): SandboxTransactionView {
    const tx = typeof txOrId === 'string' ? this.advance(this.find(txOrId), Date.now()) : txOrId;
    return { ...this.wire(tx), clock: tx.clock ? { ...tx.clock } : null };
  }

  private freeze(tx: SandboxTransaction, status: ProviderStatus): SandboxTransactionView {
    tx.status = status;
    tx.clock = null;
    return this.view(tx);
  }

  private find(id: string): SandboxTransaction {
    const tx = this.transactions.get(id);
    if (!tx) {
      throw new AppError(ErrorCode.NotFound, `No sandbox transaction ${id}.`, { param: 'id' });
    }
    return tx;
  }

  /**
   * Brings a transaction up to `now`: deadlines for swaps still waiting, lifecycle steps for
   * swaps with a deposit. Computed on read, so no timers run and tests see exact step times.
   */
  private advance(tx: SandboxTransaction, now: number): SandboxTransaction {
    if (tx.status === 'new' && tx.clock === null) {
      if (tx.payTillMs !== null && now > tx.payTillMs) {
        tx.status = 'expired';
      } else if (tx.type === 'float' && now > tx.createdAtMs + this.options.floatWindowMs) {
        tx.status = 'overdue';
      }
      return tx;
    }
    if (tx.clock === null) {
      return tx;
    }
    const from = STEPS.indexOf(tx.clock.step);
    const elapsed = Math.floor((now - tx.clock.sinceMs) / this.config.stepMs);
    const index = Math.min(STEPS.length - 1, from + elapsed);
    for (let i = from + 1; i <= index; i++) {
      const enteredAt = tx.clock.sinceMs + (i - from) * this.config.stepMs;
      // The payout is broadcast on entering `sending` (or at once when a step was skipped).
      if (STEPS[i] === 'sending' || STEPS[i] === 'finished') {
        tx.moneySentMs ??= enteredAt;
      }
    }
    const step = STEPS[index] ?? 'finished';
    tx.status = step;
    if (step === 'finished') {
      tx.clock = null;
    }
    return tx;
  }

  private payoutFor(tx: SandboxTransaction, received: Decimal, now: number): Decimal {
    if (received.eq(tx.amountExpectedFrom)) {
      return tx.amountExpectedTo;
    }
    const gross =
      tx.type === 'fixed'
        ? received.mul(tx.rate).toDecimalPlaces(tx.to.precision, Decimal.ROUND_DOWN)
        : this.market.floatPrice(tx.from, tx.to, received, now).amountTo;
    return Decimal.max(0, gross.minus(tx.networkFee));
  }

  private store(input: {
    type: SwapMode;
    from: SandboxCurrency;
    to: SandboxCurrency;
    payoutAddress: string;
    refundAddress: string | null;
    amountExpectedFrom: Decimal;
    amountExpectedTo: Decimal;
    networkFee: Decimal;
    rate: Decimal;
    payTillMs: number | null;
    now: number;
  }): SandboxTransaction {
    let id = this.random.alphanumeric(16);
    while (this.transactions.has(id)) {
      id = this.random.alphanumeric(16);
    }
    const tx: SandboxTransaction = {
      id,
      type: input.type,
      from: input.from,
      to: input.to,
      payinAddress: generateAddress(input.from.blockchain, (n) => this.random.bytes(n)),
      payoutAddress: input.payoutAddress,
      refundAddress: input.refundAddress,
      amountExpectedFrom: input.amountExpectedFrom,
      amountExpectedTo: input.amountExpectedTo,
      networkFee: input.networkFee,
      rate: input.rate,
      createdAtMs: input.now,
      payTillMs: input.payTillMs,
      status: 'new',
      clock: null,
      deposit: null,
      payout: null,
      moneySentMs: null,
    };
    this.transactions.set(id, tx);
    return tx;
  }

  private wireCreated(tx: SandboxTransaction): WireCreatedTransaction {
    return {
      id: tx.id,
      type: tx.type,
      status: tx.status,
      currencyFrom: tx.from.ticker,
      currencyTo: tx.to.ticker,
      payinAddress: tx.payinAddress,
      payinExtraId: null,
      payoutAddress: tx.payoutAddress,
      payoutExtraId: null,
      refundAddress: tx.refundAddress,
      amountExpectedFrom: tx.amountExpectedFrom.toFixed(),
      amountExpectedTo: tx.amountExpectedTo.toFixed(),
      networkFee: tx.networkFee.toFixed(),
      rate: tx.rate.toFixed(),
      payTill: tx.payTillMs === null ? null : new Date(tx.payTillMs).toISOString(),
      // Upstream's createTransaction reports microseconds.
      createdAt: tx.createdAtMs * 1000,
    };
  }

  private wire(tx: SandboxTransaction): WireTransaction {
    const sent = tx.moneySentMs !== null && tx.payout !== null;
    return {
      id: tx.id,
      type: tx.type,
      status: tx.status,
      currencyFrom: tx.from.ticker,
      currencyTo: tx.to.ticker,
      payinAddress: tx.payinAddress,
      payoutAddress: tx.payoutAddress,
      refundAddress: tx.refundAddress,
      amountExpectedFrom: tx.amountExpectedFrom.toFixed(),
      amountExpectedTo: tx.amountExpectedTo.toFixed(),
      amountFrom: tx.deposit?.amount.toFixed() ?? '0',
      amountTo: sent ? (tx.payout?.amount.toFixed() ?? '0') : '0',
      networkFee: tx.networkFee.toFixed(),
      rate: tx.rate.toFixed(),
      payinHash: tx.deposit?.hash ?? null,
      payoutHash: sent ? (tx.payout?.hash ?? null) : null,
      moneyReceived: tx.deposit ? seconds(tx.deposit.atMs) : 0,
      moneySent: sent && tx.moneySentMs !== null ? seconds(tx.moneySentMs) : 0,
      createdAt: seconds(tx.createdAtMs),
      payTill: tx.payTillMs === null ? null : new Date(tx.payTillMs).toISOString(),
    };
  }

  /** A transaction hash in the chain's own notation. */
  private hash(chain: Chain): string {
    if (chain === 'solana') {
      return base58.encode(this.random.bytes(64));
    }
    const hex = this.random.hex(64);
    return EVM_CHAINS.has(chain) ? `0x${hex}` : hex;
  }

  private items(params: unknown): Params[] {
    const list = Array.isArray(params) ? (params as unknown[]) : [params];
    return list.map((item) => this.object(item));
  }

  private object(params: unknown): Params {
    if (params === null || typeof params !== 'object' || Array.isArray(params)) {
      throw new RpcFailure(INVALID_PARAMS, 'Invalid params: an object is expected');
    }
    return params as Params;
  }

  private currency(value: unknown): SandboxCurrency {
    const currency =
      typeof value === 'string' ? this.currencies.get(value.toLowerCase()) : undefined;
    if (!currency) {
      throw new RpcFailure(INVALID_PARAMS, `Invalid currency: ${String(value)} is not supported`);
    }
    return currency;
  }

  private pair(
    fromValue: unknown,
    toValue: unknown,
    mode: SwapMode,
  ): [SandboxCurrency, SandboxCurrency] {
    const from = this.currency(fromValue);
    const to = this.currency(toValue);
    const usable =
      from !== to &&
      from.enabled &&
      to.enabled &&
      from.enabledFrom &&
      to.enabledTo &&
      (mode === 'float' || (from.fixRateEnabled && to.fixRateEnabled));
    if (!usable) {
      throw new RpcFailure(
        INVALID_PARAMS,
        `Invalid currency pair: ${from.ticker} to ${to.ticker} is not available`,
      );
    }
    return [from, to];
  }

  private amount(value: unknown, currency: SandboxCurrency): Decimal {
    if (typeof value !== 'string' || !isDecimalString(value) || new Decimal(value).lte(0)) {
      throw new RpcFailure(
        INVALID_PARAMS,
        'Invalid amount: amountFrom must be a positive decimal string',
      );
    }
    const amount = new Decimal(value);
    if (amount.decimalPlaces() > currency.precision) {
      throw new RpcFailure(
        INVALID_PARAMS,
        `Invalid amount: ${currency.ticker} takes at most ${currency.precision} decimal places`,
      );
    }
    return amount;
  }

  private checkBounds(amount: Decimal, min: Decimal, max: Decimal): void {
    if (amount.lt(min)) {
      throw new RpcFailure(INVALID_REQUEST, `${MIN_PREFIX} ${min.toFixed()}`);
    }
    if (amount.gt(max)) {
      throw new RpcFailure(INVALID_REQUEST, `${MAX_PREFIX} ${max.toFixed()}`);
    }
  }

  private address(currency: SandboxCurrency, address: string | undefined, message: string): string {
    if (address === undefined || !validateAddress(currency.blockchain, address).valid) {
      throw new RpcFailure(INVALID_PARAMS, message);
    }
    return address;
  }

  private ids(value: unknown): string[] | null {
    if (value === undefined || value === null) {
      return null;
    }
    const ids = typeof value === 'string' ? [value] : value;
    if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string')) {
      throw new RpcFailure(
        INVALID_PARAMS,
        'Invalid parameter id: a string or an array of strings is expected',
      );
    }
    if (ids.length > 10) {
      throw new RpcFailure(INVALID_PARAMS, 'Invalid parameter id: at most 10 ids per call');
    }
    return ids as string[];
  }

  private integer(
    value: unknown,
    fallback: number,
    min: number,
    max: number,
    name: string,
  ): number {
    if (value === undefined || value === null) {
      return fallback;
    }
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      throw new RpcFailure(
        INVALID_PARAMS,
        `Invalid parameter ${name}: an integer from ${min} to ${max} is expected`,
      );
    }
    return value;
  }
}
