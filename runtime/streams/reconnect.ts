/**
 * When a stream reconnects (docs/runtime.md, "Streams"): after a lost connection or the server's
 * reconnect message, a bounded number of times in a row, each wait longer than the last.
 */
import type { ReconnectOptions } from '../client-call.js';
import { RpcError } from '../errors.js';
import { TRANSPORT_ERROR } from '../transport-error.js';

/**
 * How long to wait before reconnection number `failures` (1 for the first in a row), or undefined
 * when the stream must give up. `serverRetry` is the stream's last `retry:`. The wait is at most
 * the cap, at least half of it (jitter spreads the clients of a restarted server); the cap starts
 * at `serverRetry` or `initialDelayMs` and doubles with each reconnection in a row, up to `maxDelayMs`.
 */
export function reconnectDelay(options: ReconnectOptions | false, failures: number, serverRetry: number | undefined): number | undefined {
  if (options === false || failures > (options.attempts ?? 5)) return undefined;
  const first = serverRetry ?? options.initialDelayMs ?? 250;
  const cap = Math.min(options.maxDelayMs ?? 5000, first * 2 ** (failures - 1));
  return cap / 2 + (Math.random() * cap) / 2;
}

/**
 * Whether a failed reconnection may be tried again: a network failure or a transport error
 * (a 503 of a server starting or too busy, a proxy's 502). A JSON-RPC error answer is final.
 */
export function mayReconnectAfter(error: unknown): boolean {
  return error instanceof RpcError && error.code === TRANSPORT_ERROR;
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
