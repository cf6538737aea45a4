import type { CredentialMode } from '#app/domain';
import type { AuthenticatedPartner } from '#app/partners';

/**
 * The caller behind a verified widget key. `partner` is the organization as the swap, quote and
 * catalogue services see any caller: its `credentialId` is the widget key's id, so idempotency
 * keys, per-key limits and the created swaps are the widget key's own.
 */
export interface WidgetCaller {
  widgetKeyId: string;
  key: string;
  mode: CredentialMode;
  allowedOrigins: readonly string[];
  partner: AuthenticatedPartner;
}
