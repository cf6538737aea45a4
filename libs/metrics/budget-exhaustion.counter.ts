import { Counter, type Registry } from 'prom-client';

/**
 * `upstream_budget_exhausted_total{provider,caller}`, one definition for every process that calls
 * providers (docs/decisions.md, "Operators' view of routing"): live calls our own budget for the
 * provider refused before they left, so they never count as upstream calls.
 */
export function budgetExhaustionCounter(registry: Registry): Counter<'provider' | 'caller'> {
  return new Counter({
    name: 'upstream_budget_exhausted_total',
    help:
      'Live provider calls our own budget refused before they left, by provider and caller ' +
      '(quote, create, poller).',
    labelNames: ['provider', 'caller'] as const,
    registers: [registry],
  });
}
