/**
 * `-rate`: at most that many requests per second, so that pointing `-conform` at a shared server does
 * not load it. Requests are sent one at a time; each waits until its slot.
 */

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** Spaces calls of `wait()` at least 1000 / rate milliseconds apart. */
export class RequestPacer {
  private nextSlot = Number.NEGATIVE_INFINITY;
  private readonly interval: number;

  constructor(
    rate: number,
    private readonly clock: Clock = systemClock,
  ) {
    this.interval = 1000 / rate;
  }

  /** Resolves when the next request may be sent. */
  async wait(): Promise<void> {
    const now = this.clock.now();
    const slot = Math.max(now, this.nextSlot);
    this.nextSlot = slot + this.interval;
    if (slot > now) await this.clock.sleep(slot - now);
  }
}
