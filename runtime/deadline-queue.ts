/**
 * Handler timeouts without one timer per call. Every deadline of a server has the same length, so
 * deadlines expire in the order they were added: an array in insertion order is a queue sorted by
 * deadline, and one timer set for the oldest entry serves all of them. Deleting only marks an entry;
 * marked entries are dropped when they reach the front, or all at once when they outnumber the live
 * ones. (A `Set` did the same job, but hashing every entry and growing and shrinking its table on
 * each batch cost about a tenth of the server's throughput on a 10-call batch.)
 */

/** A call being timed; pass it back to `DeadlineQueue.delete` once the call has settled. */
export interface Deadline {
  readonly at: number;
  readonly onExpire: () => void;
}

class Entry implements Deadline {
  /** Set once the call settled or expired; the queue then skips this entry. */
  done = false;
  constructor(
    readonly at: number,
    readonly onExpire: () => void,
  ) {}
}

/** Compact the array when this many entries or more are marked and they outnumber the live ones. */
const COMPACT_AT = 1024;

export class DeadlineQueue {
  readonly #ms: number;
  /** Entries in the order added (so by deadline); `#head` is the first not yet dropped. */
  #entries: Entry[] = [];
  #head = 0;
  #live = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Whether the timer keeps the process alive: only while some call is pending, like a per-call timer would. */
  #referenced = false;

  /** `ms` is the length of every deadline (> 0). */
  constructor(ms: number) {
    this.#ms = ms;
  }

  /** Starts timing a call: `onExpire` runs once `ms` have passed, unless the call is deleted first. */
  add(onExpire: () => void): Deadline {
    const entry = new Entry(Date.now() + this.#ms, onExpire);
    this.#entries.push(entry);
    this.#live++;
    if (this.#timer === undefined) this.#arm(this.#ms);
    else if (!this.#referenced) {
      this.#timer.ref();
      this.#referenced = true;
    }
    return entry;
  }

  /** Stops timing a call that has settled. */
  delete(deadline: Deadline): void {
    const entry = deadline as Entry;
    if (entry.done) return;
    entry.done = true;
    this.#live--;
    if (this.#live === 0) {
      // Nothing is pending: start over with an empty array (keeps no settled entries alive).
      this.#entries = [];
      this.#head = 0;
      // Keep the timer (re-creating it per call is what this class avoids) but let the process exit.
      if (this.#referenced && this.#timer !== undefined) {
        this.#timer.unref();
        this.#referenced = false;
      }
      return;
    }
    this.#dropSettledHead();
    const settled = this.#entries.length - this.#head - this.#live;
    if (settled >= COMPACT_AT && settled > this.#live) {
      this.#entries = this.#entries.slice(this.#head).filter((e) => !e.done);
      this.#head = 0;
    }
  }

  #dropSettledHead(): void {
    const entries = this.#entries;
    while (this.#head < entries.length && entries[this.#head].done) this.#head++;
    if (this.#head === entries.length) {
      this.#entries = [];
      this.#head = 0;
    }
  }

  #arm(delay: number): void {
    this.#timer = setTimeout(this.#expire, Math.max(1, delay));
    this.#referenced = true;
  }

  #expire = (): void => {
    this.#timer = undefined;
    this.#referenced = false;
    const now = Date.now();
    while (this.#head < this.#entries.length) {
      const entry = this.#entries[this.#head];
      if (entry.done) {
        this.#head++;
        continue;
      }
      if (entry.at > now) break;
      this.#head++;
      entry.done = true;
      this.#live--;
      try {
        entry.onExpire();
      } catch {
        // onExpire only settles a promise; never let one call stop the others from expiring.
      }
    }
    this.#dropSettledHead();
    const next = this.#entries[this.#head];
    if (next !== undefined) this.#arm(next.at - now);
  };
}
