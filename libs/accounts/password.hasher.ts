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
  /** Verified against when the account is unknown, so both answers take as long. */
  private decoy: Promise<string> | null = null;

  hash(password: string): Promise<string> {
    return this.enqueue(() => hash(password, OPTIONS));
  }

  verify(passwordHash: string, password: string): Promise<boolean> {
    return this.enqueue(async () => {
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

  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const next = this.tail.then(work, work);
    this.tail = next.catch(() => undefined);
    return next;
  }
}
