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
 * The gate of each budget, which the provider adapters take their calls through: live and test
 * traffic spend their own slots, so test traffic at its cap never costs live calls anything
 * (docs/decisions.md, "Test mode").
 */
export interface UpstreamGates {
  forBudget(budget: 'live' | 'test'): UpstreamGate;
}

export const UPSTREAM_GATES = Symbol('UPSTREAM_GATES');
