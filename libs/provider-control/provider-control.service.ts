import { Logger } from '@nestjs/common';
import type { ProviderName } from '#app/domain';
import { AppError, ErrorCode } from '#app/errors';
import type { AuditLogRepository } from '#app/partners';
import type {
  ProviderCircuits,
  ProviderStats,
  ProviderStatsRepository,
  ProviderSwitches,
} from '#app/routing';
import { toProviderView, type ProviderView } from './provider.view.js';

/**
 * What operators see of the providers of `PROVIDERS` and how they take one out of routing or put
 * it back (docs/decisions.md, "Operators' view of routing"), for the admin API and the CLI. Only
 * live mode is shown: test mode routes across the same providers with the same switches, but its
 * circuits and counts describe the sandbox. Every switch is audit-logged under its actor.
 */
export class ProviderControlService {
  private readonly logger = new Logger(ProviderControlService.name);

  constructor(
    /** `PROVIDERS`, in its order. */
    private readonly names: readonly ProviderName[],
    private readonly switches: ProviderSwitches,
    private readonly circuits: Pick<ProviderCircuits, 'state'>,
    private readonly stats: Pick<ProviderStats, 'flush'>,
    private readonly history: Pick<ProviderStatsRepository, 'day'>,
    private readonly audit: Pick<AuditLogRepository, 'record'>,
  ) {}

  /**
   * Every provider of `PROVIDERS`, in its order. This replica's counts not yet saved are saved
   * first, so an operator sees what they just did through this replica.
   */
  async list(): Promise<ProviderView[]> {
    await this.stats.flush();
    const enabled = await this.switches.enabled(this.names);
    return Promise.all(this.names.map((name) => this.view(name, enabled.includes(name))));
  }

  /**
   * Takes a provider out of routing or puts it back: at once on this replica, within 2 s on the
   * others (they read the switches every 2 s). Its swaps keep being polled either way. Taking
   * out the last provider in routing answers 409 `conflict`; an id not in `PROVIDERS`, 404.
   */
  async setEnabled(id: string, enabled: boolean, actor: string): Promise<ProviderView> {
    const provider = this.names.find((name) => name === id);
    if (provider === undefined) {
      throw new AppError(ErrorCode.NotFound, 'Provider not found.');
    }
    if (!(await this.switches.set(provider, enabled, this.names))) {
      throw new AppError(
        ErrorCode.Conflict,
        `${provider} is the last provider in routing; enable another one before disabling it.`,
      );
    }
    await this.audit.record({
      actor,
      action: enabled ? 'provider.enable' : 'provider.disable',
      targetType: 'provider',
      targetId: provider,
    });
    this.logger.log({ provider, enabled, actor }, 'provider switched');
    await this.stats.flush();
    return this.view(provider, await this.switches.isEnabled(provider));
  }

  private async view(provider: ProviderName, enabled: boolean): Promise<ProviderView> {
    const [circuit, day] = await Promise.all([
      this.circuits.state({ provider, livemode: true }),
      this.history.day(provider, true),
    ]);
    return toProviderView(provider, enabled, circuit, day);
  }
}
