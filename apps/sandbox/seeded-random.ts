/** mulberry32: tiny, fast and reproducible; the sandbox needs repeatability, not secrecy. */
export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Uniform integer in [0, max). */
  int(max: number): number {
    return Math.floor(this.next() * max);
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
