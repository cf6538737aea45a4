import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import request from 'supertest';
import { generateAddress } from '#app/chains';
import type { ProviderName } from '#app/domain';
import { startTestApi, type TestApi } from '../support/api.js';
import { startHarness, type Harness } from '../support/harness.js';
import { bothProviders, sandboxTransactions, type FaultRequest } from '../support/sandbox.js';

/** How long each provider keeps each fault while creates go on. */
const PHASE_MS = 3_000;
const WORKERS = 3;
/** A partner's pause before retrying a key that was answered 429 or 5xx. */
const RETRY_PAUSE_MS = 250;
/** Each provider's create call, as its faults name it. */
const CREATE: Record<ProviderName, string> = {
  changelly: 'createTransaction',
  changenow: 'exchange',
};

interface Creation {
  key: string;
  address: string;
  swapId: string | null;
  answers: number[];
}

/**
 * Routing under faults (docs/decisions.md, "Liquidity routing across providers"): steady swap
 * creation across two api replicas while each provider in turn times out, answers 500 and
 * rate-limits its creates, each made the better provider while it fails so creations go to it
 * first. Partners retry with the same key as the contract says. At the end every key has its one
 * swap, no payout address has a transaction at two providers or two at one, and every swap is
 * the transaction its provider holds.
 */
describe('Routing under provider faults', () => {
  let h: Harness;
  let apis: TestApi[];

  beforeAll(async () => {
    const timeouts = { PROVIDER_TIMEOUT_MS: '1000', CHANGENOW_TIMEOUT_MS: '1000' };
    h = await startHarness({
      sandbox: { stepMs: 60_000 },
      sandboxOptions: { timeoutFaultMs: 2_000 },
      providers: 'both',
      api: timeouts,
    });
    // The second replica, beside the harness's.
    apis = [h.api, await startTestApi({ ...bothProviders(h.sandbox), ...timeouts })];
  }, 60_000);

  afterAll(async () => {
    await apis?.[1].close();
    await h?.close();
  });

  let sent = 0;
  /** One try of a creation, through the replicas in turn. */
  async function attempt(creation: Creation): Promise<void> {
    const api = apis[sent++ % apis.length];
    const res = await request(api.url)
      .post('/v1/swaps')
      .set('Authorization', h.partner.authorization)
      .set('Idempotency-Key', creation.key)
      .send({ from: 'btc', to: 'eth', amountFrom: '0.1', address: creation.address });
    creation.answers.push(res.status);
    if (res.status === 201) {
      creation.swapId = (res.body as { swap: { id: string } }).swap.id;
    }
  }

  async function favour(better: ProviderName): Promise<void> {
    const worse: ProviderName = better === 'changelly' ? 'changenow' : 'changelly';
    await h.sandbox.control.setSpread(better, 'btc', 'eth', 0);
    await h.sandbox.control.setSpread(worse, 'btc', 'eth', 500);
  }

  it('creates every swap once, at one provider, whatever fails', async () => {
    const creations: Creation[] = [];
    let phase = 'warm-up';
    let stopping = false;
    const worker = async (): Promise<void> => {
      while (!stopping) {
        const creation: Creation = {
          key: randomUUID(),
          address: generateAddress('ethereum', (n) => randomBytes(n)),
          swapId: null,
          answers: [],
        };
        creations.push(creation);
        for (let tries = 0; creation.swapId === null && tries < 4 && !stopping; tries++) {
          await attempt(creation);
          if (creation.swapId === null) {
            await sleep(RETRY_PAUSE_MS);
          }
        }
      }
    };
    const workers = Array.from({ length: WORKERS }, () => worker());
    try {
      for (const provider of ['changelly', 'changenow'] as const) {
        await favour(provider);
        for (const mode of ['timeout', 'http_500', 'rate_limit'] as const) {
          phase = `${provider} ${mode}`;
          const fault: FaultRequest = { provider, method: CREATE[provider], mode, count: 1_000 };
          await h.sandbox.control.setFault(fault);
          await sleep(PHASE_MS);
          await h.sandbox.control.clearFaults();
        }
      }
    } finally {
      stopping = true;
      await Promise.all(workers);
    }
    expect(phase).toBe('changenow rate_limit');

    // The partners' last retries, with nothing failing any more.
    for (const creation of creations.filter((c) => c.swapId === null)) {
      for (let tries = 0; creation.swapId === null && tries < 5; tries++) {
        await attempt(creation);
      }
    }

    const lost = creations.filter((c) => c.swapId === null);
    expect(lost.map((c) => c.answers)).toEqual([]);
    const stored = await h.db.query<
      { id: string; provider: ProviderName; tx: string; address: string }[]
    >(
      `SELECT id, provider, provider_transaction_id AS tx, payout_address AS address
         FROM swaps WHERE organization_id = $1`,
      [h.partner.organizationId],
    );
    expect(stored).toHaveLength(creations.length);
    expect(new Set(stored.map((s) => s.id))).toEqual(new Set(creations.map((c) => c.swapId)));
    const made = (['changelly', 'changenow'] as const).flatMap((provider) =>
      sandboxTransactions(h.sandbox, provider).map((tx) => ({
        provider,
        id: tx.id,
        address: tx.payoutAddress,
      })),
    );
    // 0 extra upstream transactions, 0 swaps at two providers: one transaction per payout address.
    const perAddress = new Map<string, number>();
    for (const tx of made) {
      perAddress.set(tx.address, (perAddress.get(tx.address) ?? 0) + 1);
    }
    expect([...perAddress.entries()].filter(([, n]) => n > 1)).toEqual([]);
    expect(made).toHaveLength(stored.length);
    // Each swap is the transaction its own provider holds.
    for (const swap of stored) {
      expect(made).toContainEqual({ provider: swap.provider, id: swap.tx, address: swap.address });
    }
    const at = (provider: ProviderName) => stored.filter((s) => s.provider === provider).length;
    process.stdout.write(
      `routing under faults: ${stored.length} swaps (changelly ${at('changelly')}, changenow ` +
        `${at('changenow')}), ${creations.filter((c) => c.answers.length > 1).length} retried, ` +
        `${made.length - stored.length} extra upstream transactions\n`,
    );
    // Both providers took swaps, and some creations met a fault on the way.
    expect(new Set(stored.map((s) => s.provider))).toEqual(new Set(['changelly', 'changenow']));
    expect(creations.some((c) => c.answers.length > 1)).toBe(true);
  }, 180_000);
});
