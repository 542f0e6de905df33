// Seeded hashing and a small PRNG: every generated value is a pure function of (seed, what, index),
// so two servers with the same seed serve the same data and a lead costs nothing until it is asked for.

function finalizeHash(value: number): number {
  let h = value | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** FNV-1a over the text, salted and finalized: a well-spread 32-bit hash. */
export function hashText(text: string, salt = 0): number {
  let h = (0x811c9dc5 ^ salt) | 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return finalizeHash(h);
}

/** Combines integers (seed, domain tag, index, ...) into one well-spread 32-bit value. */
export function hashInts(...values: number[]): number {
  let h = 0x9e3779b9;
  for (const value of values) {
    h = Math.imul(h ^ finalizeHash(value + 0x7f4a7c15), 0x2c1b3c6d);
    h ^= h >>> 15;
  }
  return finalizeHash(h);
}

/** mulberry32: tiny, fast and good enough for fake data. */
export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, maxExclusive). */
  int(maxExclusive: number): number {
    return Math.floor(this.next() * maxExclusive);
  }

  /** An integer in [min, max]. */
  between(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  /** A version-4-shaped UUID drawn from this stream. */
  uuid(): string {
    let hex = '';
    for (let word = 0; word < 4; word++) {
      hex += Math.floor(this.next() * 4294967296)
        .toString(16)
        .padStart(8, '0');
    }
    const variant = '89ab'[parseInt(hex[16]!, 16) & 3];
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20)}`;
  }
}

/** Domain tags keep the streams for leads, history and results apart. */
export const Stream = { lead: 1, history: 2, result: 3, chaos: 4, newHistory: 5 } as const;

export function streamFor(seed: number, stream: number, ...index: number[]): SeededRandom {
  return new SeededRandom(hashInts(seed, stream, ...index));
}

export function toSeed(seed: number | undefined): number {
  const value = Number.isFinite(seed) ? Math.trunc(seed as number) : 1;
  return value >>> 0;
}
