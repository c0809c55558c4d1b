/**
 * Runs async work one at a time per key, in arrival order; work under different keys runs
 * concurrently. The checkout service uses it so that two calls on the same cart cannot both read
 * the cart, change it and write it back, losing one of the changes.
 *
 * The lock lives in this process: a store shared by several server processes needs its own
 * transactions on top of this.
 */
export class KeyedLock {
  /** Per key, a promise that settles (never rejects) once the last work queued under it is done. */
  readonly #tails = new Map<string, Promise<void>>();

  /** Waits for earlier work under `key`, then runs `work` and returns its result. */
  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key);
    // Nearly every call finds its key free: it starts at once, with no promise spent on waiting.
    const result = previous === undefined ? start(work) : previous.then(work);
    const tail = result.then(ignore, ignore);
    this.#tails.set(key, tail);
    // The last one out removes the key, so the map does not grow with every cart ever seen.
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }

  /** Number of keys with work running or waiting (for tests). */
  get activeKeys(): number {
    return this.#tails.size;
  }
}

const ignore = (): void => {};

/** Calls `work`; a synchronous throw becomes a rejection, as it would inside an async function. */
function start<T>(work: () => Promise<T>): Promise<T> {
  try {
    return work();
  } catch (error) {
    return Promise.reject(error);
  }
}
