/** Knobs tests and demos turn; production defaults in brackets. */
export interface SandboxOptions {
  /** How long a float swap waits for a deposit before `overdue` [3 h]. */
  floatWindowMs?: number;
  /** Deposit deadline of a fixed swap after creation (`payTill`) [20 min]. */
  fixedPayWindowMs?: number;
  /** Validity of a fixed rate id (`expiredAt`) [60 s]. */
  rateTtlMs?: number;
  /** Length of one random-walk price step [60 s]. */
  priceStepMs?: number;
  /** How long the `timeout` fault holds the answer back [30 s]. */
  timeoutFaultMs?: number;
}

export type ResolvedSandboxOptions = Required<SandboxOptions>;

export function resolveSandboxOptions(options: SandboxOptions = {}): ResolvedSandboxOptions {
  return {
    floatWindowMs: options.floatWindowMs ?? 3 * 3600_000,
    fixedPayWindowMs: options.fixedPayWindowMs ?? 20 * 60_000,
    rateTtlMs: options.rateTtlMs ?? 60_000,
    priceStepMs: options.priceStepMs ?? 60_000,
    timeoutFaultMs: options.timeoutFaultMs ?? 30_000,
  };
}

export const SANDBOX_OPTIONS = Symbol('SANDBOX_OPTIONS');

/** The sandbox process's validated configuration (`SANDBOX_*` variables). */
export const SANDBOX_CONFIG = Symbol('SANDBOX_CONFIG');
