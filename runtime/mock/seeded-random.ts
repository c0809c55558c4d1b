/**
 * The seeded pseudo-random numbers mock values are made from: the same seed text gives the same
 * sequence on every machine and run (mulberry32 over an FNV-1a hash of the text). Not for secrets.
 */

/** FNV-1a (32 bits) of a text: the seed of a sequence, and a stable number derived from the mock seed. */
export function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** A deterministic sequence of numbers in [0, 1), and the picks made from it. */
export class SeededRandom {
  #state: number;

  constructor(seedText: string) {
    this.#state = hashText(seedText);
  }

  /** The next number in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) | 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** A whole number in [min, max] (both included). */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
}
