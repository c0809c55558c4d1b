/**
 * Runs async work one at a time per key, in arrival order; work under different keys runs
 * concurrently. The checkout service uses it so that two calls on the same cart cannot both read
 * the cart, change it and write it back, losing one of the changes.
 *
 * The lock lives in this process: a store shared by several server processes needs its own
 * transactions on top of this.
 */
export class KeyedLock {
  readonly #tails = new Map<string, Promise<void>>();

  /** Waits for earlier work under `key`, then runs `work` and returns its result. */
  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const done = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => done);
    this.#tails.set(key, tail);
    await previous;
    try {
      return await work();
    } finally {
      release();
      // The last one out removes the key, so the map does not grow with every cart ever seen.
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    }
  }

  /** Number of keys with work running or waiting (for tests). */
  get activeKeys(): number {
    return this.#tails.size;
  }
}
