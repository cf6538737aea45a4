import { Injectable } from '@nestjs/common';
import { hash, verify } from '@node-rs/argon2';

/** OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane (@node-rs/argon2's default algorithm). */
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * argon2id hashing, one hash at a time per process: the work runs off the event loop, and a
 * queue keeps a burst of sign-ins from taking every core from the API.
 */
@Injectable()
export class PasswordHasher {
  private tail: Promise<unknown> = Promise.resolve();
  /** How long the last hash took: the pause before the next one. */
  private restMs = 0;
  /** Verified against when the account is unknown, so both answers take as long. */
  private decoy: Promise<string> | null = null;

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
    this.decoy ??= this.hash('not a password anyone has: the decoy');
    await this.verify(await this.decoy, password);
    return false;
  }

  /**
   * Runs `work` after every earlier piece of work has settled, so hashing never overlaps; and
   * after each piece the queue rests as long as that piece took: a burst of sign-ins keeps at
   * most half a core busy, and the API's reads keep the rest (on two cores a continuous hash is a
   * core the event loop, Postgres and Redis go without). One sign-in alone waits for nothing.
   */
  exclusively<T>(work: () => Promise<T>): Promise<T> {
    const timed = async (): Promise<T> => {
      const started = performance.now();
      try {
        return await work();
      } finally {
        this.restMs = performance.now() - started;
      }
    };
    const next = this.tail.then(timed, timed);
    this.tail = next
      .catch(() => undefined)
      // Unreferenced: a resting queue never keeps a process from exiting.
      .then(() => new Promise((resolve) => setTimeout(resolve, this.restMs).unref()));
    return next;
  }
}
