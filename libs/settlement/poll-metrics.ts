import { Injectable } from '@nestjs/common';
import { Counter, Histogram, MetricsRegistry, Summary } from '#app/metrics';

/** What the poller exposes on `/metrics` (DECISIONS §5). */
@Injectable()
export class PollMetrics {
  private readonly registry = new MetricsRegistry();

  readonly lag = this.registry.register(
    new Summary('poller_poll_lag_seconds', 'How late a swap was polled after it became due.'),
  );
  readonly batchSize = this.registry.register(
    new Histogram(
      'poller_batch_size',
      'Swaps claimed per batch.',
      [1, 5, 10, 25, 50, 100, 250, 500, 1000],
    ),
  );
  readonly polled = this.registry.register(
    new Counter('poller_swaps_polled_total', 'Swaps whose provider report was applied.'),
  );
  readonly transitions = this.registry.register(
    new Counter('poller_transitions_total', 'Status transitions applied, by new status.'),
  );
  readonly violations = this.registry.register(
    new Counter(
      'poller_transition_violations_total',
      'Provider reports that broke the transition graph and were ignored.',
    ),
  );
  readonly upstreamCalls = this.registry.register(
    new Counter('poller_upstream_calls_total', 'Provider calls made by the poller.'),
  );
  readonly upstreamErrors = this.registry.register(
    new Counter('poller_upstream_errors_total', 'Failed provider calls, by method and code.'),
  );
  readonly unknownTransactions = this.registry.register(
    new Counter(
      'poller_unknown_transactions_total',
      'Claimed swaps the provider did not report; retried next interval.',
    ),
  );
  readonly leaseLost = this.registry.register(
    new Counter(
      'poller_lease_lost_total',
      'Results dropped because the lease expired before write-back.',
    ),
  );
  readonly earningsBooked = this.registry.register(
    new Counter('poller_earnings_booked_total', 'Earnings ledger entries booked.'),
  );
  readonly payoutsCreated = this.registry.register(
    new Counter('poller_payouts_created_total', 'Payouts that became due.'),
  );
  readonly tickFailures = this.registry.register(
    new Counter('poller_tick_failures_total', 'Ticks that ended with an unexpected error.'),
  );

  render(): string {
    return this.registry.render();
  }
}
