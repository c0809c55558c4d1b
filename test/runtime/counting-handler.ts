/**
 * A stream handler for the client tests against a real server: `count(to)` yields 1..to, going on
 * after `ctx.lastEventId` when resumed, and records what each call saw and how it ended.
 */
import type { RpcContext } from '../../runtime/server.js';

export interface Counting {
  count(to: number, ctx: RpcContext): AsyncGenerator<number>;
  /** The `Last-Event-ID` of each call, in order. */
  lastEventIds: (string | undefined)[];
  /** Per call that ended: whether its signal had aborted (the client left) when its `finally` ran. */
  finished: boolean[];
}

/** The counting handler; before item n it awaits `pause(n, signal)` when that gives a promise. */
export function counting(pause?: (n: number, signal: AbortSignal) => Promise<void> | undefined): Counting {
  const lastEventIds: (string | undefined)[] = [];
  const finished: boolean[] = [];
  return {
    lastEventIds,
    finished,
    async *count(to, ctx) {
      lastEventIds.push(ctx.lastEventId);
      try {
        for (let n = Number(ctx.lastEventId ?? 0) + 1; n <= to; n++) {
          await pause?.(n, ctx.signal);
          if (ctx.signal.aborted) return;
          yield n;
        }
      } finally {
        finished.push(ctx.signal.aborted);
      }
    },
  };
}

/** Resolves when `signal` aborts: a handler waiting for what never comes but the call's end. */
export function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
