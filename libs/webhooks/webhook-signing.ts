import type { CredentialCipher } from '#app/partners';
import { signWebhook, type WebhookSignatureHeaders } from './delivery/index.js';

/**
 * How long the secret before a rotation keeps signing alongside the new one (docs/decisions.md,
 * "Webhook delivery in the poller").
 */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** An endpoint's sealed secrets, as stored. */
export interface SealedSecrets {
  secretCiphertext: string;
  previousSecretCiphertext: string | null;
  previousSecretExpiresAt: Date | null;
}

/**
 * The Standard Webhooks headers of one request: signed with the endpoint's secret and, while a
 * rotation's overlap lasts, with the previous one too.
 */
export function signFor(
  cipher: CredentialCipher,
  endpointId: string,
  sealed: SealedSecrets,
  id: string,
  now: Date,
  body: string,
): WebhookSignatureHeaders {
  const binding = { purpose: 'webhook', rowId: endpointId } as const;
  const secrets = [cipher.decrypt(sealed.secretCiphertext, binding)];
  if (
    sealed.previousSecretCiphertext !== null &&
    sealed.previousSecretExpiresAt !== null &&
    sealed.previousSecretExpiresAt.getTime() > now.getTime()
  ) {
    secrets.push(cipher.decrypt(sealed.previousSecretCiphertext, binding));
  }
  return signWebhook(secrets, id, now.getTime() / 1000, body);
}
