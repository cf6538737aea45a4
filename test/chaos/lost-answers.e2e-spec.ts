import { randomBytes, randomUUID } from 'node:crypto';
import { generateAddress } from '#app/chains';
import type { TestPartner } from '../factories/partners.js';
import { startHarness, type Harness } from '../support/harness.js';

const random = (n: number): Uint8Array => randomBytes(n);

/**
 * docs/decisions.md, "Lost upstream answers": once a creation may have reached the provider, only a
 * lookup that finds its transaction or proves there is none settles the key; nothing else creates
 * again.
 */
describe('Lost upstream answers', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({
      sandboxOptions: { timeoutFaultMs: 2500 },
      api: { PROVIDER_TIMEOUT_MS: '1000' },
    });
  });

  afterAll(async () => {
    await h?.close();
  });

  afterEach(async () => {
    await h.sandbox.control.clearFaults();
  });

  const body = (address = generateAddress('ethereum', random)) => ({
    from: 'btc',
    to: 'eth',
    amountFrom: '0.1',
    address,
  });

  function createSwap(who: TestPartner, payload: object, key: string) {
    return h.post('/v1/swaps', payload, who).set('Idempotency-Key', key);
  }

  async function createCalls(): Promise<number> {
    const { calls } = await h.sandbox.control.stats();
    return calls.createTransaction ?? 0;
  }

  async function swapsOfKey(key: string): Promise<{ provider_transaction_id: string }[]> {
    return h.db.query(`SELECT provider_transaction_id FROM swaps WHERE idempotency_key = $1`, [
      key,
    ]);
  }

  it('creates one transaction when the create and three lookups in a row fail', async () => {
    const partner = await h.newPartner();
    const key = randomUUID();
    const payload = body();
    const before = await createCalls();

    await h.sandbox.control.setFault({ method: 'createTransaction', mode: 'timeout', count: 1 });
    await createSwap(partner, payload, key).expect(503);
    for (const fault of ['timeout', 'http_500', 'timeout'] as const) {
      await h.sandbox.control.setFault({ method: 'getTransactions', mode: fault, count: 1 });
      const retry = await createSwap(partner, payload, key).expect(503);
      expect(retry.body.error).toMatchObject({ type: 'upstream_error', code: 'upstream_error' });
    }
    const settled = await createSwap(partner, payload, key).expect(201);

    const extra = (await createCalls()) - before - 1;
    process.stdout.write(`lost answer, 3 failed lookups: extra upstream transactions ${extra}\n`);
    expect(extra).toBe(0);
    const swaps = await swapsOfKey(key);
    expect(swaps).toHaveLength(1);
    expect(settled.body.swap.id).toBeDefined();
  });

  it('keeps the attempt when storing fails after the provider created the transaction', async () => {
    const partner = await h.newPartner();
    const key = randomUUID();
    const payload = { ...body(), partnerReferenceId: `store-fails-${randomUUID()}` };
    // The database refuses this one swap once the provider has answered.
    await h.db.query(`
      CREATE OR REPLACE FUNCTION refuse_swap() RETURNS trigger AS $$
      BEGIN
        IF NEW.partner_reference_id = '${payload.partnerReferenceId}' THEN
          RAISE EXCEPTION 'refused by the test';
        END IF;
        RETURN NEW;
      END $$ LANGUAGE plpgsql`);
    await h.db.query(
      `CREATE TRIGGER refuse_swap BEFORE INSERT ON swaps FOR EACH ROW EXECUTE FUNCTION refuse_swap()`,
    );
    const before = await createCalls();
    try {
      const failed = await createSwap(partner, payload, key).expect(503);
      expect(failed.body.error.code).toBe('upstream_error');
    } finally {
      await h.db.query(`DROP TRIGGER refuse_swap ON swaps`);
      await h.db.query(`DROP FUNCTION refuse_swap()`);
    }

    await createSwap(partner, payload, key).expect(201);

    const extra = (await createCalls()) - before - 1;
    process.stdout.write(
      `store failed after the provider answered: extra upstream transactions ${extra}\n`,
    );
    expect(extra).toBe(0);
    expect(await swapsOfKey(key)).toHaveLength(1);
  });

  it("never takes another partner's transaction with the same address, pair and amount", async () => {
    const [first, second] = [await h.newPartner(), await h.newPartner()];
    const [firstKey, secondKey] = [randomUUID(), randomUUID()];
    const address = generateAddress('ethereum', random);
    // Both answers are lost; the first partner's transaction is the newer of the two.
    for (const [who, key] of [
      [second, secondKey],
      [first, firstKey],
    ] as const) {
      await h.sandbox.control.setFault({ method: 'createTransaction', mode: 'timeout', count: 1 });
      await createSwap(who, body(address), key).expect(503);
    }

    // The second partner retries first: a lookup by address, pair and amount alone finds the
    // newest transaction first, the first partner's, and hands it to the second partner.
    await createSwap(second, body(address), secondKey).expect(201);
    await createSwap(first, body(address), firstKey).expect(201);

    for (const key of [firstKey, secondKey]) {
      const [swap] = await swapsOfKey(key);
      const [{ marker }] = await h.db.query<{ marker: string }[]>(
        `SELECT upstream_attempt->>'marker' AS marker FROM idempotency_keys WHERE key = $1`,
        [key],
      );
      const tx = await h.sandbox.control.transaction(swap.provider_transaction_id);
      expect(tx.userMetadata).toBe(`attempt:${marker}`);
    }
  });
});
