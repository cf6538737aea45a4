import { randomBytes } from 'node:crypto';
import type { CredentialMode } from '#app/domain';
import { AppError, ErrorCode } from '#app/errors';

/** `wk_live_` or `wk_test_` + 32 lowercase hex; the mode is group 1. */
export const WIDGET_KEY_PATTERN = /^wk_(live|test)_[0-9a-f]{32}$/;

export const MAX_ALLOWED_ORIGINS = 20;
export const MAX_ALLOWED_ORIGIN_LENGTH = 200;
export const MAX_WIDGET_KEY_NAME_LENGTH = 100;

export function newWidgetKey(mode: CredentialMode): string {
  return `wk_${mode}_${randomBytes(16).toString('hex')}`;
}

/** The mode a well-formed key names, or null for anything else. */
export function widgetKeyMode(key: unknown): CredentialMode | null {
  if (typeof key !== 'string') {
    return null;
  }
  const mode = WIDGET_KEY_PATTERN.exec(key)?.[1];
  return mode === 'live' || mode === 'test' ? mode : null;
}

/** A key that cannot exist is simply not found (admin paths). */
export function assertWidgetKey(key: string): string {
  if (widgetKeyMode(key) === null) {
    throw new AppError(ErrorCode.NotFound, 'Widget key not found.');
  }
  return key;
}

function badOrigins(message: string): AppError {
  return new AppError(ErrorCode.InvalidRequest, message, { param: 'allowedOrigins' });
}

/**
 * One allowed origin, exactly as a browser sends it in `Origin`: `http` or `https`, a host, an
 * optional port, nothing else (no path, query, credentials or wildcard). Lowercased, default port
 * dropped, so a listed origin compares equal to the browser's.
 */
export function normalizeOrigin(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_ALLOWED_ORIGIN_LENGTH) {
    return null;
  }
  if (!/^https?:\/\/[A-Za-z0-9.\-[\]:]+$/i.test(value) || value.includes('*')) {
    return null;
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.hostname === '' ||
    url.username !== '' ||
    url.password !== ''
  ) {
    return null;
  }
  const origin = url.origin;
  // What the browser would send must be what was written, bar case and a default port.
  const written = value
    .toLowerCase()
    .replace(/:(80|443)$/, (port) =>
      (port === ':80' && url.protocol === 'http:') || (port === ':443' && url.protocol === 'https:')
        ? ''
        : port,
    );
  return origin === written ? origin : null;
}

/**
 * 1–20 exact origins, deduplicated, or 400 `param: "allowedOrigins"`. The messages name the
 * field in words, so the admin API, the CLI and the dashboard's form show them as they are.
 */
export function parseAllowedOrigins(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw badOrigins('List 1 to 20 allowed origins, such as https://shop.example.');
  }
  if (value.length > MAX_ALLOWED_ORIGINS) {
    throw badOrigins(`List at most ${MAX_ALLOWED_ORIGINS} allowed origins.`);
  }
  const origins: string[] = [];
  for (const [index, entry] of value.entries()) {
    const origin = normalizeOrigin(entry);
    if (origin === null) {
      throw badOrigins(
        `Allowed origin ${index + 1} is not an origin: write scheme://host[:port] with http or https and nothing else (no path, no wildcard), such as https://shop.example.`,
      );
    }
    if (!origins.includes(origin)) {
      origins.push(origin);
    }
  }
  return origins;
}

/** A name of 1–100 printable characters. */
export function parseWidgetKeyName(value: unknown): string {
  if (typeof value !== 'string') {
    throw new AppError(ErrorCode.InvalidRequest, 'The name must be a string.', {
      param: 'name',
    });
  }
  const name = value.trim();
  if (
    name.length === 0 ||
    name.length > MAX_WIDGET_KEY_NAME_LENGTH ||
    /\p{Cc}|\p{Cs}/u.test(name)
  ) {
    throw new AppError(
      ErrorCode.InvalidRequest,
      `Give the key a name of 1 to ${MAX_WIDGET_KEY_NAME_LENGTH} printable characters.`,
      { param: 'name' },
    );
  }
  return name;
}

export function parseWidgetKeyMode(value: unknown): CredentialMode {
  if (value !== 'live' && value !== 'test') {
    throw new AppError(ErrorCode.InvalidRequest, 'mode must be "live" or "test".', {
      param: 'mode',
    });
  }
  return value;
}
