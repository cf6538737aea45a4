import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, Summary } from 'prom-client';
import type { ProviderName } from '#app/domain';
import { budgetExhaustionCounter, createAppRegistry } from '#app/metrics';
import type { UpstreamCallEvent } from '#app/provider';

/** What the poller exposes on `/metrics` (docs/decisions.md, "Operating the service"). */
@Injectable()
export class PollMetrics {
  readonly registry = createAppRegistry();

  readonly lag = new Summary({
    name: 'poller_poll_lag_seconds',
    help: 'How late a swap was polled after it became due, over the last 10 minutes.',
    percentiles: [0.5, 0.99],
    // Quantiles of recent polls only, so a backlog that has cleared stops showing.
    maxAgeSeconds: 600,
    ageBuckets: 5,
    registers: [this.registry],
  });
  readonly batchSize = new Histogram({
    name: 'poller_batch_size',
    help: 'Swaps claimed per batch.',
    buckets: [1, 5, 10, 25, 50, 100, 250, 500, 1000],
    registers: [this.registry],
  });
  readonly polled = new Counter({
    name: 'poller_swaps_polled_total',
    help: 'Swaps whose provider report was applied.',
    registers: [this.registry],
  });
  readonly transitions = new Counter({
    name: 'poller_transitions_total',
    help: 'Status transitions applied, by new status.',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });
  readonly violations = new Counter({
    name: 'poller_transition_violations_total',
    help: 'Provider reports that broke the transition graph and were ignored.',
    labelNames: ['from', 'to'] as const,
    registers: [this.registry],
  });
  readonly upstreamCalls = new Counter({
    name: 'poller_upstream_calls_total',
    help: 'Provider calls made by the poller, by provider, method and outcome.',
    labelNames: ['provider', 'method', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly budgetExhaustions = budgetExhaustionCounter(this.registry);
  readonly upstreamErrors = new Counter({
    name: 'poller_upstream_errors_total',
    help: 'Failed provider calls, by method and code.',
    labelNames: ['method', 'code'] as const,
    registers: [this.registry],
  });
  readonly unknownTransactions = new Counter({
    name: 'poller_unknown_transactions_total',
    help: 'Claimed swaps the provider did not report; retried next interval.',
    registers: [this.registry],
  });
  readonly leaseLost = new Counter({
    name: 'poller_lease_lost_total',
    help: 'Results dropped because the lease expired before write-back.',
    registers: [this.registry],
  });
  readonly earningsBooked = new Counter({
    name: 'poller_earnings_booked_total',
    help: 'Earnings ledger entries booked.',
    registers: [this.registry],
  });
  readonly payoutsCreated = new Counter({
    name: 'poller_payouts_created_total',
    help: 'Payouts that became due.',
    registers: [this.registry],
  });
  readonly oldestDueLag = new Gauge({
    name: 'poller_oldest_due_swap_lag_seconds',
    help: 'How overdue the most overdue active swap of each lane is: time since the provider last confirmed it (or since it was created) beyond one poll interval; 0 when none is overdue.',
    labelNames: ['lane'] as const,
    registers: [this.registry],
  });
  readonly earningsPendingAge = new Gauge({
    name: 'poller_earnings_oldest_pending_age_seconds',
    help: 'How long the oldest finished live swap has waited for its earnings to be booked; 0 when none waits.',
    registers: [this.registry],
  });
  readonly tickFailures = new Counter({
    name: 'poller_tick_failures_total',
    help: 'Ticks that ended with an unexpected error.',
    registers: [this.registry],
  });

  /** A live call of the poller that our budget for `provider` refused before it left. */
  budgetExhausted(provider: ProviderName, livemode: boolean): void {
    if (livemode) {
      this.budgetExhaustions.inc({ provider, caller: 'poller' });
    }
  }

  /** Fed by the provider adapter after every call that reached the provider. */
  readonly onUpstreamCall = (event: UpstreamCallEvent): void => {
    this.upstreamCalls.inc({
      provider: event.provider,
      method: event.method,
      outcome: event.outcome,
    });
    if (event.outcome !== 'ok') {
      this.upstreamErrors.inc({ method: event.method, code: event.outcome });
    }
  };
}
