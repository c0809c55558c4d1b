/**
 * Handler timeouts without one timer per call, and without reading the clock per call. Every
 * deadline of a server has the same length, so deadlines expire in the order they were added: an
 * array in insertion order is a queue sorted by deadline, and one timer serves all of them. Deleting
 * only marks an entry; marked entries are dropped when they reach the front, or all at once when
 * they outnumber the live ones. (A `Set` did the same job, but hashing every entry and growing and
 * shrinking its table on each batch cost about a tenth of the server's throughput on a 10-call
 * batch.)
 *
 * Time is counted in ticks of a tenth of the deadline, by the timer, while some call is pending: an
 * entry records the tick it was added in, and expires at the first tick that is at least a whole
 * deadline later. So a call fails between `ms` and `1.1 ms` after it started, never sooner; reading
 * `Date.now()` per call instead cost about 60 ns, a fifth of what separated an `async` call from
 * the bare handlers (docs/benchmarks.md). The timer never keeps the process alive: a server is
 * kept alive by its sockets.
 */
import { unrefTimer } from './unref-timer.js';

/** Ticks per deadline: a call expires at most `1 / TICKS_PER_DEADLINE` of the deadline late. */
const TICKS_PER_DEADLINE = 10;

/** A call being timed; pass it back to `DeadlineQueue.delete` once the call has settled. */
export interface Deadline {
  readonly onExpire: () => void;
}

class Entry implements Deadline {
  /** Set once the call settled or expired; the queue then skips this entry. */
  done = false;
  constructor(
    /** The tick during which the call was added. */
    readonly tick: number,
    readonly onExpire: () => void,
  ) {}
}

/** Compact the array when this many entries or more are marked and they outnumber the live ones. */
const COMPACT_AT = 1024;

export class DeadlineQueue {
  readonly #tickMs: number;
  /** Ticks counted so far (only while the timer runs: calls pending, or settled within the last tick). */
  #tick = 0;
  /** Entries in the order added (so by deadline); `#head` is the first not yet dropped. */
  #entries: Entry[] = [];
  #head = 0;
  #live = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** `ms` is the length of every deadline (> 0). */
  constructor(ms: number) {
    this.#tickMs = Math.max(1, ms / TICKS_PER_DEADLINE);
  }

  /**
   * Starts timing a call: `onExpire` runs once `ms` (and at most a tenth more) have passed, unless
   * the call is deleted first.
   */
  add(onExpire: () => void): Deadline {
    const entry = new Entry(this.#tick, onExpire);
    this.#entries.push(entry);
    this.#live++;
    if (this.#timer === undefined) this.#arm();
    return entry;
  }

  /** Stops timing a call that has settled. */
  delete(deadline: Deadline): void {
    const entry = deadline as Entry;
    if (entry.done) return;
    entry.done = true;
    this.#live--;
    if (this.#live === 0) {
      // Nothing is pending: start over (keeps no settled entries alive). A fresh array is
      // cheaper than emptying this one (`length = 0`).
      this.#entries = [];
      this.#head = 0;
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

  #arm(): void {
    // Never keeps the process alive: a server is kept alive by its sockets, and ref()/unref()
    // each time the first call starts and the last one ends cost 40 ns a call.
    this.#timer = unrefTimer(this.#onTick, this.#tickMs);
  }

  /**
   * One tick: expires the calls added at least a whole deadline ago, then waits for the next tick
   * while any call is pending. An entry added during tick `t` is at least `TICKS_PER_DEADLINE`
   * ticks old once tick `t + TICKS_PER_DEADLINE + 1` begins (a late timer only makes it older).
   */
  #onTick = (): void => {
    this.#timer = undefined;
    const tick = ++this.#tick;
    const lastExpiring = tick - TICKS_PER_DEADLINE - 1;
    while (this.#head < this.#entries.length) {
      const entry = this.#entries[this.#head];
      if (entry.done) {
        this.#head++;
        continue;
      }
      if (entry.tick > lastExpiring) break;
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
    if (this.#live > 0) this.#arm();
  };
}
