import { Injectable } from '@nestjs/common';
import type { ProviderName, ProviderStatus } from '#app/domain';
import { AppError, ErrorCode } from '#app/errors';
import type { SandboxStats } from './call.stats.js';
import { listedBy } from './catalogue.js';
import { ChangeNowApiService } from './changenow-api.service.js';
import type { Fault } from './fault.book.js';
import { RpcService } from './rpc.service.js';
import { SandboxState } from './sandbox.state.js';
import { toTransactionView, type SandboxTransactionView } from './wire.mapper.js';

/** A provider's spread on a pair and direction. */
export interface Spread {
  provider: ProviderName;
  from: string;
  to: string;
  bps: number;
}

/**
 * Test and demo controls over both providers (docs/decisions.md, "The provider's wire protocol",
 * "The sandbox serves both"): transactions of either, each provider's faults and spreads, one
 * reset and one stats answer.
 */
@Injectable()
export class ControlService {
  constructor(
    private readonly state: SandboxState,
    private readonly changelly: RpcService,
    private readonly changenow: ChangeNowApiService,
  ) {}

  view(id: string): SandboxTransactionView {
    return toTransactionView(this.state.transactions.find(id, Date.now()));
  }

  /** The user's deposit arrives now (or, with `late`, after the deadline). */
  deposit(id: string, amount: string | undefined, late: boolean): SandboxTransactionView {
    return toTransactionView(this.state.transactions.deposit(id, amount, late, Date.now()));
  }

  /** Any status, in the contract's words, now. Lifecycle steps resume the clock; others freeze it. */
  forceStatus(id: string, status: ProviderStatus): SandboxTransactionView {
    return toTransactionView(this.state.transactions.force(id, status, Date.now()));
  }

  addFault(fault: Fault): Fault[] {
    this.faultBook(fault.provider).add(fault);
    return this.faults();
  }

  faults(): Fault[] {
    return [...this.changelly.faults.list(), ...this.changenow.faults.list()];
  }

  clearFaults(): void {
    this.changelly.faults.clear();
    this.changenow.faults.clear();
  }

  /** Sets a spread on a pair the provider lists. */
  setSpread(spread: Spread): Spread {
    const listed = new Set(listedBy(spread.provider).map((c) => c.ticker));
    for (const side of ['from', 'to'] as const) {
      if (!listed.has(spread[side])) {
        throw new AppError(
          ErrorCode.InvalidRequest,
          `${spread.provider} lists no currency ${spread[side]}.`,
          { param: side },
        );
      }
    }
    this.state.spreads.set(spread.provider, spread.from, spread.to, spread.bps);
    return spread;
  }

  /** Each provider's spread on `from` → `to`. */
  spreads(from: string, to: string): Record<ProviderName, number> {
    return {
      changelly: this.state.spreads.bps('changelly', from, to),
      changenow: this.state.spreads.bps('changenow', from, to),
    };
  }

  restoreSpreads(): void {
    this.state.spreads.restore();
  }

  reset(): void {
    this.state.reset();
    this.clearFaults();
    this.changelly.stats.reset();
    this.changenow.stats.reset();
  }

  stats(): SandboxStats {
    return {
      ...this.changelly.stats.snapshot(),
      providers: {
        changelly: this.changelly.stats.summary(),
        changenow: this.changenow.stats.summary(),
      },
    };
  }

  private faultBook(provider: ProviderName) {
    return provider === 'changelly' ? this.changelly.faults : this.changenow.faults;
  }
}
