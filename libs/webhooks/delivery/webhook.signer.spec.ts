import { Webhook } from 'standardwebhooks';
import { generateWebhookSecret, signWebhook } from './webhook.signer.js';

describe(signWebhook.name, () => {
  const body = JSON.stringify({ id: 'evt_0123456789abcdef01234567', type: 'swap.created' });
  const now = Math.floor(Date.now() / 1000);

  it('signs so that the standardwebhooks package verifies', () => {
    const secret = generateWebhookSecret();
    const headers = signWebhook([secret], 'evt_0123456789abcdef01234567', now, body);

    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
  });

  it('signs with every secret during a rotation, and each verifies alone', () => {
    const [current, previous] = [generateWebhookSecret(), generateWebhookSecret()];
    const headers = signWebhook([current, previous], 'evt_1', now, body);

    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    for (const secret of [current, previous]) {
      expect(() => new Webhook(secret).verify(body, { ...headers })).not.toThrow();
    }
    expect(() => new Webhook(generateWebhookSecret()).verify(body, { ...headers })).toThrow();
  });

  it('fails verification when the body is changed', () => {
    const secret = generateWebhookSecret();
    const headers = signWebhook([secret], 'evt_1', now, body);

    expect(() => new Webhook(secret).verify(`${body} `, { ...headers })).toThrow();
  });

  it('makes secrets of the whsec_ form with 32 random bytes', () => {
    const secret = generateWebhookSecret();

    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(secret);
  });

  it('refuses to sign without a secret or with one of another form', () => {
    expect(() => signWebhook([], 'evt_1', now, body)).toThrow();
    expect(() => signWebhook(['sk_live_abc'], 'evt_1', now, body)).toThrow();
  });
});
