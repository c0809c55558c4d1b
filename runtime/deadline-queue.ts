/**
 * Handler timeouts without one timer per call. Every deadline of a server has the same length, so
 * deadlines expire in the order they were added: a `Set` (which iterates in insertion order) is a
 * queue sorted by deadline, and one timer set for the oldest entry serves all of them. Adding and
 * removing a call is a `Set` operation; the timer is only re-armed when it fires.
 */

/** A call being timed; pass it back to `DeadlineQueue.delete` once the call has settled. */
export interface Deadline {
  readonly at: number;
  readonly onExpire: () => void;
}

export class DeadlineQueue {
  readonly #ms: number;
  readonly #pending = new Set<Deadline>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Whether the timer keeps the process alive: only while some call is pending, like a per-call timer would. */
  #referenced = false;

  /** `ms` is the length of every deadline (> 0). */
  constructor(ms: number) {
    this.#ms = ms;
  }

  /** Starts timing a call: `onExpire` runs once `ms` have passed, unless the call is deleted first. */
  add(onExpire: () => void): Deadline {
    const deadline: Deadline = { at: Date.now() + this.#ms, onExpire };
    this.#pending.add(deadline);
    if (this.#timer === undefined) this.#arm(this.#ms);
    else if (!this.#referenced) {
      this.#timer.ref();
      this.#referenced = true;
    }
    return deadline;
  }

  /** Stops timing a call that has settled. */
  delete(deadline: Deadline): void {
    this.#pending.delete(deadline);
    // Keep the timer (re-creating it per call is what this class avoids) but let the process exit.
    if (this.#pending.size === 0 && this.#referenced && this.#timer !== undefined) {
      this.#timer.unref();
      this.#referenced = false;
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
    for (const deadline of this.#pending) {
      if (deadline.at > now) break;
      this.#pending.delete(deadline);
      try {
        deadline.onExpire();
      } catch {
        // onExpire only settles a promise; never let one call stop the others from expiring.
      }
    }
    const next = this.#pending.values().next();
    if (!next.done) this.#arm(next.value.at - now);
  };
}
