import type { ProviderName } from '#app/domain';
import type { RoutingObserver } from './provider-stats.js';
import type { CircuitState } from './provider-circuits.js';

/**
 * Whoever watches routing (the api's metrics) adds itself here from its own module: the routing
 * lib never depends on who listens.
 */
export class RoutingObservers implements RoutingObserver {
  private readonly observers: RoutingObserver[] = [];

  add(observer: RoutingObserver): void {
    this.observers.push(observer);
  }

  quoteWon(provider: ProviderName): void {
    for (const observer of this.observers) {
      observer.quoteWon(provider);
    }
  }

  call(provider: ProviderName, kind: 'quote' | 'create', outcome: string): void {
    for (const observer of this.observers) {
      observer.call(provider, kind, outcome);
    }
  }

  circuit(provider: ProviderName, livemode: boolean, state: CircuitState): void {
    for (const observer of this.observers) {
      observer.circuit?.(provider, livemode, state);
    }
  }
}
