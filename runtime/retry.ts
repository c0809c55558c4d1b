/**
 * Safe retries (docs/runtime.md, "Retries"): a call that may have reached the server is repeated
 * only when it is idempotent; any call is repeated when it provably never got there, or when the
 * server refused it unprocessed with 503/429 and `Retry-After`. JSON-RPC error answers never are.
 */
import { transportErrorData } from './transport-error.js';

/** How a transport (or one call) retries. Every member is optional; `{}` retries with the defaults. */
export interface RetryOptions {
  /** Attempts in all, the first one included. Default 3. */
  attempts?: number;
  /** The backoff cap of the first retry, in milliseconds; it doubles with each retry. Default 200. */
  initialDelayMs?: number;
  /** The largest backoff cap, in milliseconds. Default 5000. */
  maxDelayMs?: number;
  /**
   * The methods that may safely run twice (reads such as `CatalogService.getProduct`), by their
   * wire name, or a test of the wire name. A call's own `idempotent` option wins.
   */
  idempotent?: readonly string[] | ((method: string) => boolean);
}

/** Whether `method` is idempotent by the retry options. */
export function isIdempotentMethod(options: RetryOptions | false | undefined, method: string): boolean {
  const idempotent = options ? options.idempotent : undefined;
  return typeof idempotent === 'function' ? idempotent(method) : (idempotent?.includes(method) ?? false);
}

// Answers that say the server did not process the request and when to come back.
const REFUSED_UNPROCESSED = [429, 503];
// Answers of a gateway or an overloaded server: the call may or may not have run.
const MAYBE_PROCESSED = [502, 503, 504];

/**
 * How long to wait before the next attempt after `error` (attempt `attempt` failed), or undefined
 * when the call must not be repeated. Backoff: full jitter below a cap that doubles each time.
 */
export function retryDelay(error: unknown, idempotent: boolean, attempt: number, options: RetryOptions): number | undefined {
  const data = transportErrorData(error);
  if (data === undefined) return undefined; // a JSON-RPC error answer, or not an RPC error at all
  const cap = Math.min(options.maxDelayMs ?? 5000, (options.initialDelayMs ?? 200) * 2 ** (attempt - 1));
  const backoff = Math.random() * cap;
  if (data.notSent) return backoff;
  if (data.retryAfterMs !== undefined && REFUSED_UNPROCESSED.includes(data.status ?? 0)) return data.retryAfterMs;
  if (!idempotent) return undefined;
  if (data.status === undefined || MAYBE_PROCESSED.includes(data.status)) return data.retryAfterMs ?? backoff;
  return undefined;
}

/**
 * Runs `attempt` until it succeeds, the error is not retryable, the attempts are used up, or the
 * next wait would end after `deadline` (then the last error is thrown). Stops when `signal` aborts.
 */
export async function withRetries<T>(
  attempt: () => Promise<T>,
  idempotent: boolean,
  options: RetryOptions,
  deadline: number,
  signal: AbortSignal,
): Promise<T> {
  const attempts = options.attempts ?? 3;
  for (let made = 1; ; made++) {
    try {
      return await attempt();
    } catch (error) {
      if (made >= attempts || signal.aborted) throw error;
      const delay = retryDelay(error, idempotent, made, options);
      if (delay === undefined || Date.now() + delay >= deadline) throw error;
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        }, delay);
        const onAbort = () => {
          clearTimeout(timer);
          reject(signal.reason);
        };
        signal.addEventListener('abort', onAbort, { once: true });
      });
    }
  }
}
