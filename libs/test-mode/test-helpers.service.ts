import { randomBytes } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { CatalogueService, parseAmount } from '#app/catalogue';
import { generateAddress, isChain } from '#app/chains';
import { isAllowedTransition, SWAP_STATUSES, type OwnerScope, type SwapStatus } from '#app/domain';
import { AppError, ErrorCode } from '#app/errors';
import type { SwapEntity } from '#app/persistence';
import { SwapRefresher } from '#app/polling';
import { LiquidityRouter } from '#app/routing';
import { isSwapId, SwapQueryService, SwapsRepository, type SwapView } from '#app/swaps';
import { SandboxControlClient, type SandboxDeposit } from './sandbox-control.client.js';

/** The statuses a test swap can be forced into: every one a swap can move to. */
export type TestHelperStatus = Exclude<SwapStatus, 'waiting'>;
export const TEST_HELPER_STATUSES = SWAP_STATUSES.filter(
  (status): status is TestHelperStatus => status !== 'waiting',
);

const ADDRESSES_PER_ANSWER = 3;

/** A test swap the provider has a transaction for (every stored test swap does). */
type TestSwap = SwapEntity & { providerTransactionId: string };

/**
 * Test mode's helpers (docs/decisions.md, "Test mode"): they move a test swap through its lifecycle
 * on the sandbox provider, then refresh it at once, so the partner's next read already shows the
 * change.
 */
@Injectable()
export class TestHelpersService {
  private readonly logger = new Logger(TestHelpersService.name);

  constructor(
    private readonly swaps: SwapsRepository,
    private readonly queries: SwapQueryService,
    private readonly refresher: SwapRefresher,
    private readonly catalogue: CatalogueService,
    private readonly control: SandboxControlClient,
    private readonly router: LiquidityRouter,
  ) {}

  async deposit(
    owner: OwnerScope,
    id: string,
    input: { amount?: string; late?: boolean },
  ): Promise<SwapView> {
    const swap = await this.ownSwap(owner, id);
    const deposit: SandboxDeposit = { late: input.late ?? false };
    if (input.amount !== undefined) {
      const currency = await this.catalogue.currency(false, swap.from);
      deposit.amount = parseAmount(input.amount, currency.blockchainPrecision, 'amount');
    }
    if (swap.status !== 'waiting') {
      throw new AppError(
        ErrorCode.Conflict,
        `This swap is ${swap.status}; only a waiting swap takes a deposit.`,
      );
    }
    await this.control.deposit(swap.providerTransactionId, deposit);
    return this.refreshed(owner, swap);
  }

  async forceStatus(owner: OwnerScope, id: string, status: TestHelperStatus): Promise<SwapView> {
    const swap = await this.ownSwap(owner, id);
    if (swap.status !== status && !isAllowedTransition(swap.status, status)) {
      throw new AppError(
        ErrorCode.Conflict,
        `A ${swap.status} swap cannot become ${status}: statuses only move forward.`,
        { param: 'status' },
      );
    }
    await this.control.forceStatus(swap.providerTransactionId, status);
    return this.refreshed(owner, swap);
  }

  /** Fresh addresses of a listed currency, in the form `POST /v1/swaps` checks strictly. */
  async addresses(ticker: string): Promise<string[]> {
    const currency = await this.catalogue.currency(false, ticker);
    const chain = currency.blockchain;
    if (!isChain(chain)) {
      throw new AppError(
        ErrorCode.PairUnsupported,
        `No test addresses for ${currency.ticker}: its chain cannot be checked.`,
        { param: 'currency' },
      );
    }
    return Array.from({ length: ADDRESSES_PER_ANSWER }, () =>
      generateAddress(chain, (n) => randomBytes(n)),
    );
  }

  /** The caller's own test swap; an unknown id, another org's or a live swap reads as unknown. */
  private async ownSwap(owner: OwnerScope, id: string): Promise<TestSwap> {
    const swap = isSwapId(id) ? await this.swaps.findByIdForOrg(id, owner) : null;
    if (!swap || swap.livemode || swap.providerTransactionId === null) {
      throw new AppError(ErrorCode.NotFound, 'Swap not found.');
    }
    return { ...swap, providerTransactionId: swap.providerTransactionId };
  }

  /**
   * Reads the swap's transaction back from the test provider and applies it, as the poller
   * would. Should the provider not answer, the test lane's next poll (`TEST_POLL_INTERVAL_MS`)
   * catches up; the helper call itself has succeeded.
   */
  private async refreshed(owner: OwnerScope, swap: TestSwap): Promise<SwapView> {
    const active = await this.swaps.findActiveForOwner(swap.id, owner);
    if (active) {
      try {
        const [tx] = await this.router.provider(active.provider, false).getTransactions({
          ids: [active.providerTransactionId],
        });
        if (tx) {
          await this.refresher.apply(null, active, tx);
        }
      } catch (error: unknown) {
        this.logger.warn(
          { swapId: swap.id, err: error instanceof Error ? error.message : String(error) },
          'refresh after a test helper failed; the poller catches up',
        );
      }
    }
    return this.queries.get(swap.id, owner);
  }
}
