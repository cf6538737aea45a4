import type { CredentialMode } from '#app/domain';
import type { WidgetKeyRecord } from './widget-keys.repository.js';

/** A widget key as the admin API, the CLI and the dashboard show it (it is not a secret). */
export interface WidgetKeyView {
  key: string;
  mode: CredentialMode;
  name: string;
  allowedOrigins: string[];
  createdAt: string;
  revokedAt: string | null;
}

export function toWidgetKeyView(record: WidgetKeyRecord): WidgetKeyView {
  return {
    key: record.key,
    mode: record.mode,
    name: record.name,
    allowedOrigins: record.allowedOrigins,
    createdAt: new Date(record.createdAt).toISOString(),
    revokedAt: record.revokedAt ? new Date(record.revokedAt).toISOString() : null,
  };
}

/** The answer to creating a key: `{key, mode, name, allowedOrigins, createdAt}`. */
export type CreatedWidgetKeyView = Omit<WidgetKeyView, 'revokedAt'>;

export function toCreatedWidgetKeyView(record: WidgetKeyRecord): CreatedWidgetKeyView {
  const { key, mode, name, allowedOrigins, createdAt } = toWidgetKeyView(record);
  return { key, mode, name, allowedOrigins, createdAt };
}
