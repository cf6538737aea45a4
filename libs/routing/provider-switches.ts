import { Logger } from '@nestjs/common';
import type { ProviderName } from '#app/domain';
import type { ProviderSettingsRepository } from './provider-settings.repository.js';

/** Every replica reads the switches at least this often, so a change reaches all within 5 s. */
export const SWITCH_REFRESH_MS = 2_000;

/**
 * Which providers operators left in routing (docs/decisions.md, "Liquidity routing across
 * providers"): read from Postgres at most every 2 s by each replica. While Postgres cannot be read
 * the last known switches hold (and, before any was read, every provider is in).
 */
export class ProviderSwitches {
  private readonly logger = new Logger(ProviderSwitches.name);
  private off = new Set<ProviderName>();
  private readAt = Number.NEGATIVE_INFINITY;
  private reading: Promise<void> | null = null;

  constructor(
    private readonly settings: Pick<ProviderSettingsRepository, 'disabled' | 'setEnabled'>,
    private readonly now: () => number = Date.now,
  ) {}

  /** The providers of `configured` that are in routing, in their order. */
  async enabled(configured: readonly ProviderName[]): Promise<ProviderName[]> {
    if (this.now() - this.readAt >= SWITCH_REFRESH_MS) {
      this.reading ??= this.refresh().finally(() => {
        this.reading = null;
      });
      await this.reading;
    }
    return configured.filter((name) => !this.off.has(name));
  }

  async isEnabled(provider: ProviderName): Promise<boolean> {
    return (await this.enabled([provider])).length === 1;
  }

  /** Takes effect on this replica at once, on the others at their next read. */
  async set(
    provider: ProviderName,
    enabled: boolean,
    configured: readonly ProviderName[],
  ): Promise<boolean> {
    const changed = await this.settings.setEnabled(provider, enabled, configured);
    this.readAt = Number.NEGATIVE_INFINITY;
    return changed;
  }

  private async refresh(): Promise<void> {
    try {
      this.off = new Set(await this.settings.disabled());
      this.readAt = this.now();
    } catch (error: unknown) {
      this.logger.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'provider switches unreadable; the last known ones hold',
      );
      this.readAt = this.now();
    }
  }
}
