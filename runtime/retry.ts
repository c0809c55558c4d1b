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
  /** The largest backoff cap, in milliseconds. Default 5000. */
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

// Answers that say the server did not process the request and when to come back.
const REFUSED_UNPROCESSED = [429, 503];
// Answers of a gateway or an overloaded server: the call may or may not have run.
const MAYBE_PROCESSED = [502, 503, 504];

/**
 * How long to wait before the next attempt after `error` (attempt `attempt` failed), or undefined
 * when the call must not be repeated. Backoff: full jitter below a cap that doubles each time.
 */
export function retryDelay(error: unknown, idempotent: boolean, attempt: number, options: RetryOptions): number | undefined {
  // JSON-RPC error answers, and anything that is no RPC error at all, are final.
  if (!(error instanceof RpcError) || error.code !== TRANSPORT_ERROR) return undefined;
  const data = (error.data ?? {}) as TransportErrorData;
  const cap = Math.min(options.maxDelayMs ?? 5000, (options.initialDelayMs ?? 200) * 2 ** (attempt - 1));
  const backoff = Math.random() * cap;
  const asked = retryAfterMs(data.retryAfter);
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
