import { isIP } from 'node:net';
import { ConfigError } from './config.error.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Words that make up the values people paste from examples and templates. */
const PLACEHOLDER_WORDS =
  /admin|token|secret|password|passwd|default|dummy|sample|test|demo|your|here|goes|please|change|replace|with|random|characters|key|me/g;
/** Text only a template contains. */
const PLACEHOLDER_MARKS = /changeme|changeit|replaceme|placeholder|example/;
/** Filler typed to reach a length: a run of `0123456789…` or `abcdef…`. */
const SEQUENCES = ['0123456789'.repeat(8), 'abcdefghijklmnopqrstuvwxyz'.repeat(3)];

/**
 * True for a value that is evidently not a random secret: a template's placeholder, known words
 * with at most a counting sequence, or a handful of repeated characters. Random hex, base64 or
 * digits of the required length never match.
 */
export function isPlaceholderSecret(value: string): boolean {
  const letters = value.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (PLACEHOLDER_MARKS.test(letters) || new Set(value).size < 6) {
    return true;
  }
  const rest = letters.replace(PLACEHOLDER_WORDS, '');
  return rest.length < 8 || SEQUENCES.some((sequence) => sequence.includes(rest));
}

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

  /** An IP address to listen on (`0.0.0.0` or `::` for every interface). */
  ipAddress(name: string, fallback: string): string {
    const value = this.optional(name) ?? fallback;
    if (isIP(value) === 0) {
      throw new ConfigError(name, 'must be an IP address to listen on, e.g. 127.0.0.1 or 0.0.0.0');
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

  /** A shared secret: long enough, and not a placeholder someone forgot to replace. */
  secret(name: string, minLength: number): string {
    const value = this.required(name);
    if (value.length < minLength) {
      throw new ConfigError(name, `must be at least ${minLength} characters`);
    }
    if (isPlaceholderSecret(value)) {
      throw new ConfigError(name, 'is a placeholder; use a random value (openssl rand -hex 32)');
    }
    return value;
  }
}
