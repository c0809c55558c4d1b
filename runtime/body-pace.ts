/**
 * The pace a request body must keep while it arrives. A body has `graceMs`, plus one second per
 * `minBytesPerSecond` bytes it has sent, from the moment its headers were read; once that time is
 * up, the adapter answers 408 and drops it. Without it, a connection that announces a large body and
 * sends nothing (or a byte now and then) holds its socket and what it sent for as long as the
 * server's request timeout lets it, and a few dozen of them take a server's attention for good.
 *
 * One timer per server, not one per body: bodies are counted in ticks of at most a second (a tenth
 * of `graceMs` when that is shorter), so a body is dropped at most one tick after its time is up,
 * never before. The timer runs only while a body is arriving and never keeps the process alive.
 */
import { unrefTimer } from './unref-timer.js';

/** `bodyGraceMs` when not given. */
export const DEFAULT_BODY_GRACE_MS = 10_000;
/** `minBodyBytesPerSecond` when not given. */
export const DEFAULT_MIN_BODY_BYTES_PER_SECOND = 8_192;

/** A body being read; `received` is kept up to date by the adapter reading it. */
export interface PacedBody {
  received: number;
}

class Entry implements PacedBody {
  received = 0;
  constructor(
    /** The tick during which the body's headers were read. */
    readonly startTick: number,
    readonly onTooSlow: () => void,
  ) {}
}

/** The longest tick, in milliseconds. */
const MAX_TICK_MS = 1_000;

export class BodyPace {
  /** Time every body has, whatever it sends, in milliseconds. */
  readonly graceMs: number;
  /** Each this many bytes received give a body one second more. */
  readonly minBytesPerSecond: number;
  readonly #tickMs: number;
  #tick = 0;
  readonly #bodies = new Set<Entry>();
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** `graceMs` > 0; `minBytesPerSecond` > 0. `Infinity` for `graceMs` turns the check off. */
  constructor(graceMs: number, minBytesPerSecond: number) {
    this.graceMs = graceMs;
    this.minBytesPerSecond = minBytesPerSecond;
    this.#tickMs = Math.max(1, Math.min(MAX_TICK_MS, graceMs / 10));
  }

  /** Starts timing a body; `onTooSlow` runs once if it is still being read when its time is up. */
  watch(onTooSlow: () => void): PacedBody {
    const entry = new Entry(this.#tick, onTooSlow);
    if (this.graceMs === Number.POSITIVE_INFINITY) return entry;
    this.#bodies.add(entry);
    if (this.#timer === undefined) this.#arm();
    return entry;
  }

  /** Stops timing a body that has been read, refused, or whose connection died. */
  unwatch(body: PacedBody): void {
    this.#bodies.delete(body as Entry);
  }

  /** Bodies being timed (for tests and metrics). */
  get watching(): number {
    return this.#bodies.size;
  }

  #arm(): void {
    this.#timer = unrefTimer(this.#onTick, this.#tickMs);
  }

  #onTick = (): void => {
    this.#timer = undefined;
    const tick = ++this.#tick;
    for (const entry of this.#bodies) {
      // The body started somewhere in its first tick: count only the whole ticks since.
      const elapsedMs = (tick - entry.startTick - 1) * this.#tickMs;
      if (elapsedMs < this.graceMs + (entry.received / this.minBytesPerSecond) * 1000) continue;
      this.#bodies.delete(entry);
      try {
        entry.onTooSlow();
      } catch {
        // onTooSlow only answers a request; one broken socket must not stop the others' checks.
      }
    }
    if (this.#bodies.size > 0) this.#arm();
  };
}
