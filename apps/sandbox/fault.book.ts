import type { ProviderName } from '#app/domain';

export const FAULT_MODES = [
  'non_json',
  'empty_result',
  'rpc_error',
  'rate_limit',
  'timeout',
  'http_500',
] as const;
export type FaultMode = (typeof FAULT_MODES)[number];

export interface Fault {
  /** Whose API it spoils. */
  provider: ProviderName;
  /** A JSON-RPC method or a ChangeNOW operation, or `*` for any. */
  method: string;
  mode: FaultMode;
  /** Calls still to be spoiled. */
  remaining: number;
  /** `rpc_error`: a JSON-RPC code for Changelly, an error word for ChangeNOW. */
  code?: number | string;
  message?: string;
  delayMs?: number;
}

/** One provider's faults armed through the control API; each matching call consumes one. */
export class FaultBook {
  private faults: Fault[] = [];

  constructor(readonly provider: ProviderName) {}

  add(fault: Fault): void {
    this.faults.push(fault);
  }

  clear(): void {
    this.faults = [];
  }

  list(): Fault[] {
    return this.faults.map((fault) => ({ ...fault }));
  }

  take(method: string): Fault | null {
    const fault = this.faults.find((f) => f.method === method || f.method === '*');
    if (!fault) {
      return null;
    }
    fault.remaining -= 1;
    if (fault.remaining <= 0) {
      this.faults = this.faults.filter((f) => f !== fault);
    }
    return { ...fault };
  }
}
