import { Decimal } from 'decimal.js';
import { base58 } from '@scure/base';
import type { ProviderName, ProviderStatus, SwapMode } from '#app/domain';
import { generateAddress, type Chain } from '#app/chains';
import { AppError, ErrorCode } from '#app/errors';
import type { SandboxCurrency } from './catalogue.js';
import {
  awaitsDeposit,
  impliesDeposit,
  isLifecycleStep,
  missedDeposit,
  type LifecycleClock,
} from './lifecycle.clock.js';
import type { Market } from './market.js';
import type { Payout, SandboxTransaction } from './sandbox-transaction.js';
import type { SeededRandom } from './seeded-random.js';

/** What `getTransactions` filters and pages by. */
export interface TransactionsQuery {
  /** Whose transactions: each API lists only its own. */
  provider: ProviderName;
  /** Only these ids; null: any. */
  ids: string[] | null;
  payoutAddress: string | null;
  /** Only transactions reported in one of these statuses; null: any. */
  statuses: ProviderStatus[] | null;
  /** Only transactions created at or after this time (ms); null: any. */
  sinceMs: number | null;
  /** Only transactions created at or before this time (ms); null: any. */
  untilMs: number | null;
  limit: number;
  offset: number;
}

/** A transaction as created: its terms, before any deposit. */
export interface NewTransaction {
  provider: ProviderName;
  type: SwapMode;
  from: SandboxCurrency;
  to: SandboxCurrency;
  payoutAddress: string;
  refundAddress: string | null;
  userMetadata: string | null;
  payload: Record<string, string> | null;
  amountExpectedFrom: Decimal;
  amountExpectedTo: Decimal;
  networkFee: Decimal;
  rate: Decimal;
  payTillMs: number | null;
}

/** Upstream reports a transaction still `new` as `waiting`, and finds it under either word. */
function reportedAs(status: ProviderStatus, wanted: readonly ProviderStatus[]): boolean {
  return wanted.includes(status) || (status === 'new' && wanted.includes('waiting'));
}

export function matchesQuery(
  tx: SandboxTransaction,
  query: Omit<TransactionsQuery, 'limit' | 'offset'>,
): boolean {
  return (
    tx.provider === query.provider &&
    (query.ids === null || query.ids.includes(tx.id)) &&
    (query.payoutAddress === null || tx.payoutAddress === query.payoutAddress) &&
    (query.statuses === null || reportedAs(tx.status, query.statuses)) &&
    (query.sinceMs === null || tx.createdAtMs >= query.sinceMs) &&
    (query.untilMs === null || tx.createdAtMs <= query.untilMs)
  );
}

const EVM_CHAINS = new Set<Chain>([
  'ethereum',
  'ethereum_classic',
  'binance_smart_chain',
  'polygon',
]);

/**
 * The sandbox's transactions, each read through the lifecycle clock, and what happens to them on
 * the chains: deposits arrive, payouts leave. Ids, addresses and hashes come from the seeded
 * generator, so a run is reproducible.
 */
export class TransactionBook {
  private readonly transactions = new Map<string, SandboxTransaction>();

  constructor(
    private readonly random: SeededRandom,
    private readonly market: Market,
    private readonly clock: LifecycleClock,
  ) {}

  /** Ids are unique across both providers, each in its provider's style. */
  open(terms: NewTransaction, now: number): SandboxTransaction {
    const newId = () =>
      terms.provider === 'changenow' ? this.random.hex(14) : this.random.alphanumeric(16);
    let id = newId();
    while (this.transactions.has(id)) {
      id = newId();
    }
    const tx: SandboxTransaction = {
      id,
      ...terms,
      payinAddress: generateAddress(terms.from.blockchain, (n) => this.random.bytes(n)),
      createdAtMs: now,
      status: 'new',
      statusSinceMs: now,
      clock: null,
      deposit: null,
      payout: null,
      moneySentMs: null,
      refundHash: null,
    };
    this.transactions.set(id, tx);
    return tx;
  }

  /** `provider`'s transaction as of `now`, or null when it has none by that id. */
  get(provider: ProviderName, id: string, now: number): SandboxTransaction | null {
    const tx = this.transactions.get(id);
    return tx?.provider === provider ? this.clock.advance(tx, now) : null;
  }

  /** The transaction as of `now`, for the control API: an unknown id is a 404. */
  find(id: string, now: number): SandboxTransaction {
    const tx = this.transactions.get(id);
    if (!tx) {
      throw new AppError(ErrorCode.NotFound, `No sandbox transaction ${id}.`, { param: 'id' });
    }
    return this.clock.advance(tx, now);
  }

  /** Every match, newest first, as of `now`. */
  matching(query: Omit<TransactionsQuery, 'limit' | 'offset'>, now: number): SandboxTransaction[] {
    return [...this.transactions.values()]
      .map((tx) => this.clock.advance(tx, now))
      .filter((tx) => matchesQuery(tx, query))
      .reverse();
  }

  /** The page at `offset` of the matches, newest first, as of `now`. */
  list(query: TransactionsQuery, now: number): SandboxTransaction[] {
    return this.matching(query, now).slice(query.offset, query.offset + query.limit);
  }

  /** The user's deposit arrives now (or, with `late`, after the deadline); by default in full. */
  deposit(id: string, amount: string | undefined, late: boolean, now: number): SandboxTransaction {
    const tx = this.find(id, now);
    if (!awaitsDeposit(tx)) {
      throw new AppError(
        ErrorCode.InvalidRequest,
        `Transaction ${id} is ${tx.status}, not awaiting a deposit.`,
        { param: 'id' },
      );
    }
    const received = amount === undefined ? tx.amountExpectedFrom : new Decimal(amount);
    tx.deposit = { amount: received, atMs: now, hash: this.hash(tx.from.blockchain) };
    const missed = missedDeposit(tx, tx.deposit, late);
    if (missed === null) {
      tx.payout = this.payout(tx, received, now);
    }
    return this.clock.enter(tx, missed ?? 'confirming', now);
  }

  /**
   * Any status, now. A status that implies money moved gets the deposit (in full) and, for a
   * lifecycle step, the payout it lacks.
   */
  force(id: string, status: ProviderStatus, now: number): SandboxTransaction {
    const tx = this.find(id, now);
    if (impliesDeposit(status)) {
      tx.deposit ??= {
        amount: tx.amountExpectedFrom,
        atMs: now,
        hash: this.hash(tx.from.blockchain),
      };
    }
    if (isLifecycleStep(status) && tx.deposit !== null) {
      tx.payout ??= this.payout(tx, tx.deposit.amount, now);
    }
    if (status === 'refunded') {
      tx.refundHash ??= this.hash(tx.from.blockchain);
    }
    return this.clock.enter(tx, status, now);
  }

  clear(): void {
    this.transactions.clear();
  }

  /** The expected amount pays as promised; any other pays at the swap's rate, net of the fee. */
  private payout(tx: SandboxTransaction, received: Decimal, now: number): Payout {
    let amount = tx.amountExpectedTo;
    if (!received.eq(tx.amountExpectedFrom)) {
      const gross =
        tx.type === 'fixed'
          ? received.mul(tx.rate).toDecimalPlaces(tx.to.precision, Decimal.ROUND_DOWN)
          : this.market.floatPrice(tx.provider, tx.from, tx.to, received, now).amountTo;
      amount = Decimal.max(0, gross.minus(tx.networkFee));
    }
    return { amount, hash: this.hash(tx.to.blockchain) };
  }

  /** A transaction hash in the chain's own notation. */
  private hash(chain: Chain): string {
    if (chain === 'solana') {
      return base58.encode(this.random.bytes(64));
    }
    const hex = this.random.hex(64);
    return EVM_CHAINS.has(chain) ? `0x${hex}` : hex;
  }
}
