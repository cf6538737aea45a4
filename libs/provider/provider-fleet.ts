import type { ProviderName } from '#app/domain';
import { AppError, ErrorCode } from '#app/errors';
import type { LiquidityProvider } from './liquidity-provider.js';

/**
 * The providers of `PROVIDERS`, in its order (the order that breaks ties), with each one's adapter
 * per mode: live always, test where the deployment has a test endpoint for it.
 */
export class ProviderFleet {
  constructor(
    readonly names: readonly ProviderName[],
    private readonly live: ReadonlyMap<ProviderName, LiquidityProvider>,
    private readonly test: ReadonlyMap<ProviderName, LiquidityProvider>,
  ) {}

  /** The mode's adapters in `PROVIDERS` order; none configured for test mode answers 503. */
  of(livemode: boolean): LiquidityProvider[] {
    const adapters = this.names.flatMap((name) => {
      const adapter = (livemode ? this.live : this.test).get(name);
      return adapter ? [adapter] : [];
    });
    if (adapters.length === 0) {
      throw notConfigured(livemode);
    }
    return adapters;
  }

  /**
   * The adapter a swap or fixed rate lives at. A provider no longer configured answers 503: its
   * swaps wait for it to come back rather than go anywhere else.
   */
  get(name: ProviderName, livemode: boolean): LiquidityProvider {
    const adapter = this.find(name, livemode);
    if (!adapter) {
      throw notConfigured(livemode, name);
    }
    return adapter;
  }

  /** The adapter of `name` in a mode, if the deployment has one. */
  find(name: ProviderName, livemode: boolean): LiquidityProvider | undefined {
    return (livemode ? this.live : this.test).get(name);
  }

  /** The place of `name` in `PROVIDERS`. */
  order(name: ProviderName): number {
    return this.names.indexOf(name);
  }
}

function notConfigured(livemode: boolean, name?: ProviderName): AppError {
  return new AppError(
    ErrorCode.UpstreamNotConfigured,
    livemode
      ? 'The liquidity provider of this request is not configured on this server.'
      : 'Test mode is not available on this server: it has no test provider (TEST_PROVIDER_URL).',
    { cause: name },
  );
}
