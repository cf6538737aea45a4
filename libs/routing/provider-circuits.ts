import { Logger } from '@nestjs/common';
import type { ProviderName } from '#app/domain';
import { MemoryStore, type KeyValueStore } from '#app/redis';
import type { RoutingObserver } from './provider-stats.js';

export type CircuitState = 'closed' | 'open' | 'half_open';

/** Failures in a row that open a provider's circuit. */
export const CIRCUIT_FAILURE_THRESHOLD = 5;
/** How long an open circuit stays open before one call is let through. */
export const CIRCUIT_OPEN_MS = 15_000;
/** The longest a half-open probe may hold its turn (a call's own timeout ends it sooner). */
const PROBE_HOLD_MS = 30_000;
/** Counts and open marks outlive any outage a circuit is about; idle ones expire. */
const STATE_TTL_MS = 10 * 60_000;
/** A replica reads the shared state at most this often per circuit. */
const VIEW_TTL_MS = 250;
const FALLBACK_LOG_INTERVAL_MS = 60_000;

/** What a call's outcome tells a circuit (docs/decisions.md, "Liquidity routing across providers"). */
export type CallVerdict = 'success' | 'failure' | 'neutral';

/** One circuit: a provider in one mode (live and test reach different endpoints). */
export interface CircuitKey {
  provider: ProviderName;
  livemode: boolean;
}

/**
 * A circuit per provider, shared by every replica through the store (Redis): five failures in a
 * row open it; after 15 s one call is let through (half-open), whose success closes it and whose
 * failure opens it again. While the store is unreachable, each replica keeps its own view in
 * memory. An open circuit never refuses a call by itself: the router only prefers providers whose
 * circuit is closed. Every state read, and every change this replica makes, is told to the
 * observer (the api's `provider_circuit_state`).
 */
export class ProviderCircuits {
  private readonly logger = new Logger(ProviderCircuits.name);
  private readonly local = new MemoryStore();
  private readonly views = new Map<string, { state: CircuitState; readAt: number }>();
  /** The circuits whose half-open probe this replica holds. */
  private readonly probing = new Set<string>();
  private lastFallbackLog = 0;

  constructor(
    private readonly store: KeyValueStore,
    /** Tells this replica's probes apart from another's. */
    private readonly replicaId: string,
    private readonly observer: Pick<RoutingObserver, 'circuit'> | null = null,
    private readonly now: () => number = Date.now,
  ) {}

  /** The circuit's state, as this replica last read it (at most 250 ms ago). */
  async state(key: CircuitKey): Promise<CircuitState> {
    const name = circuitName(key);
    const view = this.views.get(name);
    const now = this.now();
    if (view && now - view.readAt < VIEW_TTL_MS) {
      return this.seen(key, view.state);
    }
    const openedAt = await this.shared((store) => store.get(`${name}:open`));
    const state: CircuitState =
      openedAt === null
        ? 'closed'
        : now - Number(openedAt) < CIRCUIT_OPEN_MS
          ? 'open'
          : 'half_open';
    this.views.set(name, { state, readAt: now });
    return this.seen(key, state);
  }

  /**
   * Whether this call may go to the provider now: always while closed; while half-open, only the
   * one call that takes the probe's turn (on any replica); never while open.
   */
  async admit(key: CircuitKey): Promise<boolean> {
    const state = await this.state(key);
    if (state !== 'half_open') {
      return state === 'closed';
    }
    const name = circuitName(key);
    const holder = await this.shared((store) =>
      store.claim(`${name}:probe`, this.replicaId, PROBE_HOLD_MS),
    );
    if (holder !== this.replicaId) {
      return false;
    }
    this.probing.add(name);
    return true;
  }

  /**
   * Records what one quote or create call showed of the provider. A probe that showed nothing
   * (a rate limit, a refused input) gives its turn back, so the next call probes.
   */
  async record(key: CircuitKey, verdict: CallVerdict): Promise<void> {
    const name = circuitName(key);
    const probed = this.probing.delete(name);
    if (verdict === 'neutral') {
      if (probed) {
        await this.shared((store) => store.deleteIf(`${name}:probe`, this.replicaId));
      }
      return;
    }
    this.views.delete(name);
    if (verdict === 'success') {
      await this.shared(async (store) => {
        await Promise.all([
          store.del(`${name}:failures`),
          store.del(`${name}:open`),
          store.del(`${name}:probe`),
        ]);
      });
      this.seen(key, 'closed');
      return;
    }
    await this.shared(async (store) => {
      const failures = await store.increment(`${name}:failures`, STATE_TTL_MS);
      if (!probed && failures < CIRCUIT_FAILURE_THRESHOLD) {
        return;
      }
      await store.set(`${name}:open`, String(this.now()), STATE_TTL_MS);
      await store.deleteIf(`${name}:probe`, this.replicaId);
      this.seen(key, 'open');
      if (probed || failures === CIRCUIT_FAILURE_THRESHOLD) {
        this.logger.warn(
          { provider: key.provider, livemode: key.livemode, failures, probed },
          'provider circuit opened',
        );
      }
    });
  }

  private seen(key: CircuitKey, state: CircuitState): CircuitState {
    this.observer?.circuit(key.provider, key.livemode, state);
    return state;
  }

  /** Runs `work` on the shared store, or on this replica's own while the store fails. */
  private async shared<T>(work: (store: KeyValueStore) => Promise<T>): Promise<T> {
    try {
      return await work(this.store);
    } catch (error: unknown) {
      const now = this.now();
      if (now - this.lastFallbackLog > FALLBACK_LOG_INTERVAL_MS) {
        this.lastFallbackLog = now;
        this.logger.warn(
          { err: error instanceof Error ? error.message : String(error) },
          'provider circuits: store unreachable, this replica keeps its own view',
        );
      }
      return work(this.local);
    }
  }
}

function circuitName(key: CircuitKey): string {
  return `circuit:${key.livemode ? 'live' : 'test'}:${key.provider}`;
}
