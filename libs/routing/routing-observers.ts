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

  quoteWon(provider: ProviderName, livemode: boolean): void {
    for (const observer of this.observers) {
      observer.quoteWon(provider, livemode);
    }
  }

  budgetExhausted(provider: ProviderName, livemode: boolean, caller: 'quote' | 'create'): void {
    for (const observer of this.observers) {
      observer.budgetExhausted(provider, livemode, caller);
    }
  }

  circuit(provider: ProviderName, livemode: boolean, state: CircuitState): void {
    for (const observer of this.observers) {
      observer.circuit(provider, livemode, state);
    }
  }
}
