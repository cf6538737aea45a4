/** One limit: `limit` requests per `windowSeconds`, counted per key. */
export interface RateLimitPolicy {
  name: string;
  limit: number;
  windowSeconds: number;
}

/** The spec's Limits table. */
export const POLICIES = {
  perIp: { name: 'ip', limit: 120, windowSeconds: 1 },
  perCredential: { name: 'credential', limit: 30, windowSeconds: 1 },
  publicQuote: { name: 'public-quote', limit: 60, windowSeconds: 60 },
  /** Swap creation through the widget, per source address on each widget key. */
  widgetCreation: { name: 'widget-creation', limit: 10, windowSeconds: 60 },
} as const satisfies Record<string, RateLimitPolicy>;

/** The outcome of counting one request against one policy. */
export interface RateLimitState {
  policy: RateLimitPolicy;
  remaining: number;
  resetMs: number;
  exceeded: boolean;
}

/** The state that describes a response: an exceeded limit first, else the one nearest exhaustion. */
export function nearestExhaustion(states: readonly RateLimitState[]): RateLimitState {
  const ranked = [...states].sort(
    (a, b) =>
      Number(b.exceeded) - Number(a.exceeded) ||
      a.remaining / a.policy.limit - b.remaining / b.policy.limit ||
      b.resetMs - a.resetMs,
  );
  return ranked[0];
}

/**
 * `RateLimit-*` headers (docs/decisions.md, "Rate limits on @nestjs/throttler"); on 429
 * `Retry-After` is added by the error writer.
 */
export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    'RateLimit-Limit': String(state.policy.limit),
    'RateLimit-Remaining': String(state.remaining),
    'RateLimit-Reset': String(Math.max(1, Math.ceil(state.resetMs / 1000))),
    'RateLimit-Policy': `${state.policy.limit};w=${state.policy.windowSeconds}`,
  };
}
