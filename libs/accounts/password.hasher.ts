import { Inject, Injectable, Optional } from '@nestjs/common';
import { hash, verify } from '@node-rs/argon2';
import { AppError, ErrorCode } from '#app/errors';

/** OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane (@node-rs/argon2's default algorithm). */
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * Pieces of work the queue holds at most (running and waiting). At about twice a hash's time
 * each (the hash, then its rest), the last one waits a few seconds; more would only make every
 * sign-in behind a flood wait longer, so the rest are refused at once (503 with `Retry-After`).
 */
export const HASH_QUEUE_LIMIT = 16;

/** Replaces `HASH_QUEUE_LIMIT` where provided (tests of a full queue). */
export const HASH_QUEUE_LIMIT_OPTION = Symbol('HASH_QUEUE_LIMIT_OPTION');

const RETRY_AFTER_MS = { min: 1000, max: 30_000 };

/**
 * argon2id hashing, one hash at a time per process: the work runs off the event loop, and a
 * queue keeps a burst of sign-ins from taking every core from the API. The queue is bounded:
 * beyond `limit` pieces, work is refused with `service_unavailable` instead of waiting.
 */
@Injectable()
export class PasswordHasher {
  private tail: Promise<unknown> = Promise.resolve();
  /** Pieces of work queued or running. */
  private pending = 0;
  /** How long the last hash took: the pause before the next one. */
  private restMs = 0;
  /** Verified against when the account is unknown, so both answers take as long. */
  private decoy: Promise<string> | null = null;

  readonly limit: number;

  constructor(@Optional() @Inject(HASH_QUEUE_LIMIT_OPTION) limit?: number) {
    this.limit = limit ?? HASH_QUEUE_LIMIT;
  }

  hash(password: string): Promise<string> {
    return this.exclusively(() => hash(password, OPTIONS));
  }

  verify(passwordHash: string, password: string): Promise<boolean> {
    return this.exclusively(async () => {
      try {
        return await verify(passwordHash, password);
      } catch {
        return false;
      }
    });
  }

  /** Spends the time of a verification and answers false. */
  async verifyNobody(password: string): Promise<false> {
    this.decoy ??= this.hash('not a password anyone has: the decoy').catch((error: unknown) => {
      // A refused decoy (the queue was full) is made again by the next caller.
      this.decoy = null;
      throw error;
    });
    await this.verify(await this.decoy, password);
    return false;
  }

  /**
   * Runs `work` after every earlier piece of work has settled, so hashing never overlaps; and
   * after each piece the queue rests as long as that piece took: a burst of sign-ins keeps at
   * most half a core busy, and the API's reads keep the rest (on two cores a continuous hash is a
   * core the event loop, Postgres and Redis go without). One sign-in alone waits for nothing.
   * With `limit` pieces already queued, rejects at once with `service_unavailable` and a
   * `retryAfterMs` of about the time the queue needs to drain.
   */
  exclusively<T>(work: () => Promise<T>): Promise<T> {
    if (this.pending >= this.limit) {
      return Promise.reject(this.busy());
    }
    this.pending += 1;
    const timed = async (): Promise<T> => {
      const started = performance.now();
      try {
        return await work();
      } finally {
        this.restMs = performance.now() - started;
        this.pending -= 1;
      }
    };
    const next = this.tail.then(timed, timed);
    this.tail = next
      .catch(() => undefined)
      // Unreferenced: a resting queue never keeps a process from exiting.
      .then(() => new Promise((resolve) => setTimeout(resolve, this.restMs).unref()));
    return next;
  }

  private busy(): AppError {
    const drainMs = this.pending * 2 * this.restMs;
    return new AppError(
      ErrorCode.ServiceUnavailable,
      'Too many sign-ins are being checked right now. Try again in a few seconds.',
      {
        retryAfterMs: Math.min(RETRY_AFTER_MS.max, Math.max(RETRY_AFTER_MS.min, drainMs)),
      },
    );
  }
}
