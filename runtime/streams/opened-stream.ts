/**
 * What the call pipeline gives for a stream method whose handler returned an async iterable: the
 * iterable, how its items are checked, and the watchers (`onCall`, `instrumentation`) that wait for
 * the stream's items and end rather than for the call's return. The stream session
 * (stream-session.ts) pulls the items and tells the watchers.
 */
import type { Outcome } from '../call-outcome.js';

/** Someone told of a stream's progress: each item, the end, and the scope the items are pulled in. */
export interface StreamWatcher {
  /** Runs each pull of an item inside the watcher's scope (a tracer's context). */
  run?<T>(work: () => T): T;
  /** An item was written: `index` counts from 0. */
  item?(index: number): void;
  /** The stream ended: `{ result: null }` (its end, a reconnect message, the client gone) or the error sent. */
  end?(outcome: Outcome): void;
}

export class OpenedStream {
  readonly #watchers: StreamWatcher[] = [];

  /**
   * `checkItem`: an item converted to the wire and validated (the method's result checks), or the
   * error to end the stream with; `failure`: what an error the iterator throws is sent as.
   */
  constructor(
    readonly iterable: AsyncIterable<unknown>,
    readonly checkItem: (item: unknown) => Outcome,
    readonly failure: (error: unknown) => Outcome,
  ) {}

  /** Some watcher runs the pulls in its scope (`run`); without one a pull needs no wrapping closure. */
  scoped = false;

  watch(watcher: StreamWatcher): void {
    this.#watchers.push(watcher);
    if (watcher.run !== undefined) this.scoped = true;
  }

  /** Runs `work` inside every watcher's `run`, the first watcher outermost. */
  run<T>(work: () => T): T {
    let wrapped = work;
    for (let index = this.#watchers.length - 1; index >= 0; index--) {
      const watcher = this.#watchers[index];
      if (watcher.run === undefined) continue;
      const inner = wrapped;
      wrapped = () => watcher.run!(inner);
    }
    return wrapped();
  }

  /** Tells every watcher of an item; `report` gets a watcher's failure (it never fails the stream). */
  itemWritten(index: number, report: (error: unknown) => void): void {
    for (const watcher of this.#watchers) {
      try {
        watcher.item?.(index);
      } catch (error) {
        report(error);
      }
    }
  }

  /** Tells every watcher of the end, once per stream (the session sees to that). */
  ended(outcome: Outcome, report: (error: unknown) => void): void {
    for (const watcher of this.#watchers) {
      try {
        watcher.end?.(outcome);
      } catch (error) {
        report(error);
      }
    }
  }
}

/** Whether a value has `Symbol.asyncIterator` (an async generator, a `ReadableStream`, any async iterable). */
export function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    ((typeof value === 'object' && value !== null) || typeof value === 'function') &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function'
  );
}
