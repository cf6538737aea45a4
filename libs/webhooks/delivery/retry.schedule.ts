const HOUR_MS = 3_600_000;

/** How long deliveries are retried, counted from the delivery's creation. */
export const WEBHOOK_RETRY_WINDOW_MS = 72 * HOUR_MS;

/**
 * The delay before each retry as multiples of the base: 5 s, 30 s, 3 min, 15 min, 1 h, 6 h with the
 * default 5 s base, then every 12 h. Roughly ×6 a step, as Stripe and Svix space theirs.
 */
const STEPS = [1, 6, 36, 180, 720, 4_320];
const LAST_STEP = 8_640;

/** ±10 %: retries of deliveries that failed together spread out instead of arriving as one burst. */
const JITTER = 0.1;

export interface RetryPlan {
  /** The base delay (`WEBHOOK_RETRY_BASE_MS`, 5 000 by default). */
  baseMs: number;
  /** A number in [0, 1); `Math.random` outside tests. */
  random: () => number;
}

/**
 * When to try a delivery again after `attemptsMade` failed attempts, or null when the next try
 * would fall after the retry window: the delivery has then failed for good.
 */
export function nextAttemptAt(
  plan: RetryPlan,
  attemptsMade: number,
  createdAt: Date,
  now: Date,
): Date | null {
  const step = STEPS[attemptsMade - 1] ?? LAST_STEP;
  const jitter = 1 - JITTER + 2 * JITTER * plan.random();
  const next = new Date(now.getTime() + Math.round(plan.baseMs * step * jitter));
  return next.getTime() - createdAt.getTime() > WEBHOOK_RETRY_WINDOW_MS ? null : next;
}
