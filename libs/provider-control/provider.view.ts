import type { ProviderName } from '#app/domain';
import { medianLatencyMs, type CircuitState, type ProviderDay } from '#app/routing';

/**
 * One provider as operators see it (`GET /admin/providers`, `npm run admin -- provider:list`):
 * whether it is in routing, its live circuit, and its live last 24 hours across every replica.
 */
export interface ProviderView {
  id: ProviderName;
  enabled: boolean;
  circuit: CircuitState;
  quotes24h: number;
  wins24h: number;
  errors24h: number;
  /** The median latency of its quote and create calls (a bucket's upper bound); null with none. */
  p50LatencyMs: number | null;
  swaps24h: number;
  /** The median of delivered over quoted rate of its float swaps finished; null with none. */
  fidelity24h: string | null;
}

export function toProviderView(
  id: ProviderName,
  enabled: boolean,
  circuit: CircuitState,
  day: ProviderDay,
): ProviderView {
  return {
    id,
    enabled,
    circuit,
    quotes24h: day.quotes,
    wins24h: day.wins,
    errors24h: day.errors,
    p50LatencyMs: medianLatencyMs(day.latencyBuckets),
    swaps24h: day.swaps,
    fidelity24h: day.fidelity,
  };
}
