import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;
const SECRET_PATTERN = /^whsec_[A-Za-z0-9+/]+={0,2}$/;

/** A new endpoint secret in the Standard Webhooks form: `whsec_` + base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

function signingKey(secret: string): Buffer {
  if (!SECRET_PATTERN.test(secret)) {
    throw new Error('not a whsec_ secret');
  }
  return Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
}

/** The Standard Webhooks headers of one request: id, Unix seconds, and one signature per secret. */
export interface WebhookSignatureHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * Signs `id.timestamp.body` with HMAC-SHA256 under each secret (Standard Webhooks, `v1`). During a
 * rotation both the new and the previous secret sign, space-separated, so a receiver holding
 * either verifies.
 */
export function signWebhook(
  secrets: readonly string[],
  id: string,
  timestampSeconds: number,
  body: string,
): WebhookSignatureHeaders {
  if (secrets.length === 0) {
    throw new Error('a webhook needs at least one secret to sign with');
  }
  const timestamp = String(Math.floor(timestampSeconds));
  const content = `${id}.${timestamp}.${body}`;
  const signature = secrets
    .map(
      (secret) => `v1,${createHmac('sha256', signingKey(secret)).update(content).digest('base64')}`,
    )
    .join(' ');
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signature };
}
