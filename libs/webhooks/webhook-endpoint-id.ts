import { randomBytes } from 'node:crypto';

/** `we_` + 24 lowercase hex from a CSPRNG. */
export const WEBHOOK_ENDPOINT_ID = /^we_[0-9a-f]{24}$/;

export function newWebhookEndpointId(): string {
  return `we_${randomBytes(12).toString('hex')}`;
}
