import { ConfigError } from './config.error.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Reads and validates single environment variables; each failure names its variable. */
export class EnvReader {
  constructor(private readonly env: Env) {}

  optional(name: string): string | undefined {
    const value = this.env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  }

  required(name: string): string {
    const value = this.optional(name);
    if (value === undefined) {
      throw new ConfigError(name, 'is required');
    }
    return value;
  }

  url(name: string, protocols: readonly string[], value = this.required(name)): string {
    let parsed: URL;
    try {
      parsed = new URL(value);
    } catch {
      throw new ConfigError(name, `must be a URL (${protocols.join(' or ')})`);
    }
    if (!protocols.includes(parsed.protocol.replace(/:$/, ''))) {
      throw new ConfigError(name, `must use ${protocols.join(' or ')}`);
    }
    return value;
  }

  optionalUrl(name: string, protocols: readonly string[]): string | undefined {
    const value = this.optional(name);
    return value === undefined ? undefined : this.url(name, protocols, value);
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const raw = this.optional(name);
    if (raw === undefined) {
      return fallback;
    }
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      throw new ConfigError(name, `must be an integer from ${min} to ${max}`);
    }
    return Number(raw);
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const raw = this.optional(name) ?? fallback;
    if (!(allowed as readonly string[]).includes(raw)) {
      throw new ConfigError(name, `must be one of ${allowed.join(', ')}`);
    }
    return raw as T;
  }

  base64Key(name: string, bytes: number): Buffer {
    const raw = this.required(name);
    const decoded = Buffer.from(raw, 'base64');
    if (decoded.length !== bytes || !/^[A-Za-z0-9+/]+={0,2}$/.test(raw)) {
      throw new ConfigError(name, `must be ${bytes} bytes, base64-encoded`);
    }
    return decoded;
  }

  secret(name: string, minLength: number): string {
    const value = this.required(name);
    if (value.length < minLength) {
      throw new ConfigError(name, `must be at least ${minLength} characters`);
    }
    return value;
  }
}
