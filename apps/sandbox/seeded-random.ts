import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import type { RandomGenerator } from 'pure-rand/types/RandomGenerator';

/** Reproducible from its seed; the sandbox needs repeatability, not secrecy. */
export class SeededRandom {
  private generator: RandomGenerator;

  constructor(private readonly seed: number) {
    this.generator = xoroshiro128plus(seed);
  }

  /** Starts the sequence over, for everyone holding this generator. */
  reset(): void {
    this.generator = xoroshiro128plus(this.seed);
  }

  /** Uniform integer in [0, max). */
  int(max: number): number {
    return uniformInt(this.generator, 0, max - 1);
  }

  bytes(length: number): Uint8Array {
    const out = new Uint8Array(length);
    for (let i = 0; i < length; i++) {
      out[i] = this.int(256);
    }
    return out;
  }

  hex(length: number): string {
    return Buffer.from(this.bytes(Math.ceil(length / 2)))
      .toString('hex')
      .slice(0, length);
  }

  /** Lowercase letters and digits, like upstream transaction ids. */
  alphanumeric(length: number): string {
    const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
    let out = '';
    for (let i = 0; i < length; i++) {
      out += alphabet[this.int(alphabet.length)];
    }
    return out;
  }
}
