import { AsyncLocalStorage } from 'node:async_hooks';

/** The longest a partner's upstream call waits for the shared budget before answering 429. */
export const PARTNER_MAX_GATE_WAIT_MS = 2500;

/**
 * Admission to the shared upstream budget (docs/decisions.md, "The upstream budget"); rejects when
 * none is left in time.
 */
export interface UpstreamGate {
  acquire(): Promise<void>;
}

/**
 * The gate of each budget, which the provider adapters take their calls through: each provider
 * has its own cap, and live and test traffic spend their own slots, so test traffic at its cap
 * never costs live calls anything (docs/decisions.md, "Test mode", "Liquidity routing across
 * providers").
 */
export interface UpstreamGates {
  /** @param budget a name of its own (the provider and the mode) */
  forBudget(budget: string, ratePerSecond: number): UpstreamGate;
}

const patience = new AsyncLocalStorage<'now'>();

/**
 * Runs `work` so that its upstream calls take only a budget slot free now instead of waiting for
 * one: a quote asked of several providers skips one whose budget is spent this instant.
 */
export function withoutWaitingForBudget<T>(work: () => Promise<T>): Promise<T> {
  return patience.run('now', work);
}

/** False inside `withoutWaitingForBudget`. */
export function waitsForBudget(): boolean {
  return patience.getStore() !== 'now';
}

export const UPSTREAM_GATES = Symbol('UPSTREAM_GATES');
