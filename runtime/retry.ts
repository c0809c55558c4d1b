/**
 * Safe retries (docs/runtime.md, "Retries"): a call that may have reached the server is repeated
 * only when it is idempotent; any call is repeated when it provably never got there, or when the
 * server refused it unprocessed with 503/429 and `Retry-After`. JSON-RPC error answers never are.
 */
import type { RetryPolicy, RpcCall } from './client-call.js';
import { RpcError } from './errors.js';
import { TRANSPORT_ERROR, type TransportErrorData } from './transport-error.js';

/** How {@link retryPolicy} retries. Every member is optional. */
export interface RetryOptions {
  /** Attempts in all, the first one included. Default 3. */
  attempts?: number;
  /** The backoff cap of the first retry, in milliseconds; it doubles with each retry. Default 200. */
  initialDelayMs?: number;
  /**
   * The longest wait before a retry, in milliseconds: the largest backoff cap, and the most of a
   * `Retry-After` that is honoured (a longer one is waited this long). Default 5000; at most
   * 2^31 - 1 (about 24.8 days), the longest timer there is.
   */
  maxDelayMs?: number;
  /**
   * The methods that may safely run twice (reads such as `CatalogService.getProduct`), by their
   * wire name, or a test of the wire name. A call's own `idempotent` option wins.
   */
  idempotent?: readonly string[] | ((method: string) => boolean);
}

// Network failures before a connection existed: nothing was sent. Node's fetch names them in
// `cause.code`; browsers do not tell, so there every network failure "may have reached the server".
const NOT_SENT = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT'];

/** `Retry-After` (seconds or an HTTP date) in milliseconds from now, or undefined when absent or unreadable. */
export function retryAfterMs(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/**
 * The longest wait a timer takes: `setTimeout` runs a longer one after 1 ms (its delay overflows a
 * signed 32-bit integer), so `Retry-After: 999999999` once meant "retry now".
 */
// 2 ** 31 - 1, written out: a literal lets bundlers drop the constant from bundles that never retry.
const MAX_TIMER_MS = 2_147_483_647;

// Answers that say the server did not process the request and when to come back.
const REFUSED_UNPROCESSED = [429, 503];
// Answers of a gateway or an overloaded server: the call may or may not have run.
const MAYBE_PROCESSED = [502, 503, 504];

/**
 * How long to wait before the next attempt after `error` (attempt `attempt` failed), or undefined
 * when the call must not be repeated. Backoff: full jitter below a cap that doubles each time. A
 * `Retry-After` is honoured up to `maxDelayMs`, never past the longest timer.
 */
export function retryDelay(error: unknown, idempotent: boolean, attempt: number, options: RetryOptions): number | undefined {
  // JSON-RPC error answers, and anything that is no RPC error at all, are final.
  if (!(error instanceof RpcError) || error.code !== TRANSPORT_ERROR) return undefined;
  const data = (error.data ?? {}) as TransportErrorData;
  const maxDelay = Math.min(options.maxDelayMs ?? 5000, MAX_TIMER_MS);
  const cap = Math.min(maxDelay, (options.initialDelayMs ?? 200) * 2 ** (attempt - 1));
  const backoff = Math.random() * cap;
  const retryAfter = retryAfterMs(data.retryAfter);
  const asked = retryAfter === undefined ? undefined : Math.min(retryAfter, maxDelay);
  if (data.cause !== undefined && NOT_SENT.includes(data.cause)) return backoff;
  if (asked !== undefined && REFUSED_UNPROCESSED.includes(data.status ?? 0)) return asked;
  if (!idempotent) return undefined;
  if (data.status === undefined || MAYBE_PROCESSED.includes(data.status)) return asked ?? backoff;
  return undefined;
}

/**
 * The retry policy for a transport's `retry` option or a call's: `new HttpTransport(url, { retry:
 * retryPolicy({ idempotent: ['CatalogService.getProduct'] }) })`. It runs an attempt again until it
 * succeeds, the error is not retryable, the attempts are used up, or the next wait would end after
 * the call's deadline (then the last error is thrown); it stops when the call's signal aborts.
 * Imported only by apps that retry, so other bundles do not carry it.
 */
export function retryPolicy(options: RetryOptions = {}): RetryPolicy {
  const { idempotent } = options;
  return {
    idempotent: (method) => (typeof idempotent === 'function' ? idempotent(method) : (idempotent?.includes(method) ?? false)),
    run: (attempt, call, deadline) => withRetries(attempt, call, options, deadline),
  };
}

async function withRetries<T>(attempt: () => Promise<T>, call: RpcCall, options: RetryOptions, deadline: number): Promise<T> {
  const { signal } = call;
  const attempts = options.attempts ?? 3;
  for (let made = 1; ; made++) {
    try {
      return await attempt();
    } catch (error) {
      if (made >= attempts || signal.aborted) throw error;
      const delay = retryDelay(error, call.idempotent, made, options);
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
