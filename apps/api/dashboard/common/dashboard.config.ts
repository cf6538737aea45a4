import { hkdfSync } from 'node:crypto';
import type { CredentialsConfig, DashboardConfig } from '#app/config';

export const DASHBOARD_SETTINGS = Symbol('DASHBOARD_SETTINGS');

/** What the dashboard's own parts need from the app's configuration. */
export interface DashboardSettings {
  /** `PUBLIC_URL`'s origin, or null: each request's own scheme and `Host`. */
  publicUrl: string | null;
  /**
   * Signs the CSRF tokens of forms shown before sign-in (a signed-in session has its own
   * secret); derived from `CREDENTIAL_ENCRYPTION_KEY`, so every replica agrees.
   */
  preSessionCsrfSecret: string;
}

export function dashboardSettings(
  dashboard: DashboardConfig,
  credentials: CredentialsConfig,
): DashboardSettings {
  const secret = hkdfSync(
    'sha256',
    credentials.encryptionKey,
    Buffer.alloc(0),
    'partner-dashboard pre-session csrf',
    32,
  );
  return {
    publicUrl: dashboard.publicUrl,
    preSessionCsrfSecret: Buffer.from(secret).toString('hex'),
  };
}
