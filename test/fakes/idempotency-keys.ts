import { randomUUID } from 'node:crypto';
import {
  IDEMPOTENCY_WINDOW_MS,
  type IdempotencyRepository,
  type Reservation,
  type SwapView,
  type UpstreamAttempt,
} from '#app/swaps';

export interface KeyRow {
  id: string;
  credentialId: string;
  key: string;
  fingerprint: string;
  state: 'pending' | 'completed';
  swapId: string | null;
  response: SwapView | null;
  expiresAt: Date;
  attempt: UpstreamAttempt | null;
  locked: boolean;
}

/** `idempotency_keys` in memory, with the repository's rules for claims and attempts. */
export class FakeIdempotencyKeys implements Pick<
  IdempotencyRepository,
  'reserve' | 'recordAttempt' | 'complete' | 'release' | 'clearAttempt' | 'unlockForReconciliation'
> {
  readonly rows: KeyRow[] = [];
  /** Called each time a request finds its key held by another one still running. */
  onBusy: () => void = () => undefined;

  row(key: string): KeyRow | undefined {
    return this.rows.find((r) => r.key === key);
  }

  reserve(credentialId: string, key: string, fingerprint: string): Promise<Reservation> {
    const row = this.rows.find((r) => r.credentialId === credentialId && r.key === key);
    if (!row) {
      const id = randomUUID();
      this.rows.push({
        id,
        credentialId,
        key,
        fingerprint,
        state: 'pending',
        swapId: null,
        response: null,
        expiresAt: new Date(Date.now() + IDEMPOTENCY_WINDOW_MS),
        attempt: null,
        locked: true,
      });
      return Promise.resolve({
        outcome: 'acquired',
        id,
        previousAttempt: null,
        expiresAt: this.rows.at(-1)!.expiresAt,
      });
    }
    if (row.fingerprint !== fingerprint) {
      return Promise.resolve({ outcome: 'mismatch' });
    }
    if (row.state === 'completed' && row.swapId) {
      return Promise.resolve({
        outcome: 'replay',
        swapId: row.swapId,
        response: row.response,
        expiresAt: row.expiresAt,
      });
    }
    if (row.locked) {
      this.onBusy();
      return Promise.resolve({ outcome: 'busy' });
    }
    row.locked = true;
    return Promise.resolve({
      outcome: 'acquired',
      id: row.id,
      previousAttempt: row.attempt,
      expiresAt: row.expiresAt,
    });
  }

  recordAttempt(id: string, attempt: UpstreamAttempt): Promise<void> {
    this.byId(id).attempt = attempt;
    return Promise.resolve();
  }

  complete(_manager: unknown, id: string, response: SwapView): Promise<void> {
    Object.assign(this.byId(id), {
      state: 'completed',
      swapId: response.id,
      response,
      locked: false,
    });
    return Promise.resolve();
  }

  release(id: string): Promise<void> {
    const index = this.rows.findIndex((r) => r.id === id && r.state === 'pending');
    if (index >= 0) {
      this.rows.splice(index, 1);
    }
    return Promise.resolve();
  }

  clearAttempt(id: string): Promise<void> {
    this.byId(id).attempt = null;
    return Promise.resolve();
  }

  unlockForReconciliation(id: string): Promise<boolean> {
    const row = this.rows.find((r) => r.id === id);
    if (!row || row.state !== 'pending' || row.attempt === null) {
      return Promise.resolve(false);
    }
    row.locked = false;
    return Promise.resolve(true);
  }

  private byId(id: string): KeyRow {
    const row = this.rows.find((r) => r.id === id);
    if (!row) {
      throw new Error(`no key row ${id}`);
    }
    return row;
  }
}
