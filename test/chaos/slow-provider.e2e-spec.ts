import { randomBytes, randomUUID } from 'node:crypto';
import { generateAddress } from '#app/chains';
import { startHarness, type Harness } from '../support/harness.js';

/** The idempotency lock was once a fixed 30 s; this create outlasts it. */
const OLD_LOCK_MS = 30_000;
const CREATE_TAKES_MS = OLD_LOCK_MS + 2_000;

/**
 * The key's lock is derived from PROVIDER_TIMEOUT_MS (docs/decisions.md, "Idempotency keys"), so a
 * provider slower than the old fixed lock still makes one transaction and one swap when the partner
 * retries during the call.
 */
describe('A provider slower than the old idempotency lock', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ api: { PROVIDER_TIMEOUT_MS: '60000' } });
  });

  afterAll(async () => {
    await h?.close();
  });

  it('keeps the key locked for the whole call: a retry after 31 s makes no second transaction', async () => {
    const key = randomUUID();
    const payload = {
      from: 'btc',
      to: 'eth',
      amountFrom: '0.1',
      address: generateAddress('ethereum', (n) => randomBytes(n)),
    };
    const create = () => h.post('/v1/swaps', payload).set('Idempotency-Key', key);
    const callsBefore = (await h.sandbox.control.stats()).calls.createTransaction ?? 0;
    await h.sandbox.control.setFault({
      method: 'createTransaction',
      mode: 'timeout',
      delayMs: CREATE_TAKES_MS,
      count: 1,
    });

    // `then` sends it now; its answer comes once the provider's 32 s are over.
    const firstAnswer = create().then((res) => res);
    await new Promise((resolve) => setTimeout(resolve, OLD_LOCK_MS + 1_000));
    const [original, retry] = await Promise.all([firstAnswer, create()]);

    // Each answer is a success or one the partner retries with the same key (the retry waited
    // up to 10 s for the first, or the first lost its answer on a loaded machine): never a 500.
    const answers = [original, retry];
    const settled = await create();
    process.stdout.write(
      `slow create: answers ${answers.map((r) => `${r.status} ${r.status === 201 ? '' : JSON.stringify(r.body)}`).join(', ')}; then ${settled.status}\n`,
    );
    for (const res of answers) {
      expect([201, 409, 503]).toContain(res.status);
    }
    expect(settled.status).toBe(201);
    for (const res of answers.filter((r) => r.status === 201)) {
      expect(res.body.swap.id).toBe(settled.body.swap.id);
    }
    const calls = ((await h.sandbox.control.stats()).calls.createTransaction ?? 0) - callsBefore;
    const swaps = await h.db.query<unknown[]>(`SELECT id FROM swaps WHERE idempotency_key = $1`, [
      key,
    ]);
    process.stdout.write(
      `create took ${CREATE_TAKES_MS} ms: upstream creates ${calls}, swaps ${swaps.length}\n`,
    );
    expect(calls).toBe(1);
    expect(swaps).toHaveLength(1);
  }, 90_000);
});
