import { PROVIDER_NAMES, type ProviderName } from '#app/domain';
import type { SandboxCurrency } from './catalogue.js';
import { SeededRandom } from './seeded-random.js';

/** Seeded spreads lie in [0, MAX_SEEDED_BPS] basis points. */
export const MAX_SEEDED_BPS = 40;

function key(provider: ProviderName, from: string, to: string): string {
  return `${provider}:${from}:${to}`;
}

/**
 * Each provider's spread per pair and direction, in basis points taken off the reference rate
 * (more is worse for the user), for float and fixed rates alike. The seeded ones come from their
 * own generator over the whole catalogue, so each provider is the better one on some pairs and a
 * run's spreads do not depend on the calls made; the control API overrides them until restored.
 */
export class SpreadBook {
  private readonly seeded = new Map<string, number>();
  private readonly overrides = new Map<string, number>();

  constructor(currencies: readonly SandboxCurrency[], seed: number) {
    const random = new SeededRandom(seed ^ 0x5b4ead);
    for (const provider of PROVIDER_NAMES) {
      for (const from of currencies) {
        for (const to of currencies) {
          if (from !== to) {
            this.seeded.set(key(provider, from.ticker, to.ticker), random.int(MAX_SEEDED_BPS + 1));
          }
        }
      }
    }
  }

  bps(provider: ProviderName, from: string, to: string): number {
    const id = key(provider, from, to);
    return this.overrides.get(id) ?? this.seeded.get(id) ?? 0;
  }

  set(provider: ProviderName, from: string, to: string, bps: number): void {
    this.overrides.set(key(provider, from, to), bps);
  }

  /** Back to the seeded spreads. */
  restore(): void {
    this.overrides.clear();
  }
}
