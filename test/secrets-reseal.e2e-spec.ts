import { createCipheriv, hkdfSync, randomBytes } from 'node:crypto';
import request from 'supertest';
import { Webhook } from 'standardwebhooks';
import type { DataSource } from 'typeorm';
import { CredentialCipher } from '#app/partners';
import { createPartner } from './factories/partners.js';
import {
  startTestApi,
  TEST_ADMIN_TOKEN,
  TEST_ENCRYPTION_KEY,
  type TestApi,
} from './support/api.js';
import { openTestDataSource } from './support/database.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

/** A secret sealed as the previous release did: one key for every purpose, no row bound. */
function sealedTheFormerWay(secret: string): string {
  const key = Buffer.from(
    hkdfSync(
      'sha256',
      Buffer.from(TEST_ENCRYPTION_KEY, 'base64'),
      Buffer.alloc(0),
      'swap-partners/credential-encryption',
      32,
    ),
  );
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64');
}

/**
 * Rows written by the previous release (secrets sealed with one key and bound to nothing) are
 * re-sealed when a process holding the key starts: each with its purpose's key, bound to its
 * row, and still the same secret.
 */
describe('Sealed secrets of the former scheme', () => {
  let api: TestApi | null = null;
  let db: DataSource;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    db = await openTestDataSource();
    receiver = new WebhookReceiver();
    await receiver.start();
  });

  afterAll(async () => {
    await api?.close();
    await receiver.close();
    await db.destroy();
  });

  it('are re-sealed per purpose and row at start, and keep working', async () => {
    const first = await startTestApi();
    const partner = await createPartner(first.app);
    const created = await request(first.url)
      .post('/v1/webhook_endpoints')
      .set('Authorization', partner.authorization)
      .send({ url: `${receiver.url}/resealed` })
      .expect(201);
    const endpoint = created.body.webhookEndpoint as { id: string; secret: string };
    await first.close();
    // As the previous release left them.
    await db.query(`UPDATE credentials SET secret_ciphertext = $2 WHERE public_key = $1`, [
      partner.publicKey,
      sealedTheFormerWay(partner.secret),
    ]);
    await db.query(
      `UPDATE webhook_endpoints SET secret_ciphertext = $2, previous_secret_ciphertext = $3,
              previous_secret_expires_at = now() + interval '1 hour'
        WHERE id = $1`,
      [
        endpoint.id,
        sealedTheFormerWay(endpoint.secret),
        sealedTheFormerWay('whsec_' + 'A'.repeat(43)),
      ],
    );

    api = await startTestApi();

    const [credential] = await db.query<{ secret_ciphertext: string }[]>(
      `SELECT secret_ciphertext FROM credentials WHERE public_key = $1`,
      [partner.publicKey],
    );
    const [hook] = await db.query<
      { secret_ciphertext: string; previous_secret_ciphertext: string }[]
    >(`SELECT secret_ciphertext, previous_secret_ciphertext FROM webhook_endpoints WHERE id = $1`, [
      endpoint.id,
    ]);
    for (const sealed of [
      credential.secret_ciphertext,
      hook.secret_ciphertext,
      hook.previous_secret_ciphertext,
    ]) {
      expect(sealed).toMatch(/^v2\./);
    }
    const revealed = await request(api.url)
      .post(`/admin/credentials/${partner.publicKey}/reveal`)
      .set('Authorization', `Bearer ${TEST_ADMIN_TOKEN}`)
      .expect(200);
    expect(JSON.stringify(revealed.body)).toContain(partner.secret);
    await request(api.url).get('/v1/swaps').set('Authorization', partner.authorization).expect(200);
    const ping = await request(api.url)
      .post(`/v1/webhook_endpoints/${endpoint.id}/ping`)
      .set('Authorization', partner.authorization)
      .send({})
      .expect(200);
    expect(ping.body.delivery).toMatchObject({ httpStatus: 200 });
    const [webhook] = receiver.at('/resealed');
    expect(() =>
      new Webhook(endpoint.secret).verify(webhook.body, {
        'webhook-id': String(webhook.headers['webhook-id']),
        'webhook-timestamp': String(webhook.headers['webhook-timestamp']),
        'webhook-signature': String(webhook.headers['webhook-signature']),
      }),
    ).not.toThrow();

    // Bound to its row: copied onto another credential, or read as a webhook secret, it opens nothing.
    const cipher = api.app.get(CredentialCipher);
    const other = await createPartner(api.app);
    expect(() =>
      cipher.decrypt(credential.secret_ciphertext, {
        purpose: 'credential',
        rowId: other.publicKey,
      }),
    ).toThrow();
    expect(() =>
      cipher.decrypt(credential.secret_ciphertext, {
        purpose: 'webhook',
        rowId: partner.publicKey,
      }),
    ).toThrow();
  });
});
