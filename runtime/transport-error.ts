/**
 * The client's transport errors: -32000 `Transport error: <detail>` (docs/protocol.md §1), with
 * what a retry needs to know in `data`.
 */
import { ErrorCode, RpcError } from './errors.js';

/** The `data` of a transport error; each member only when known. */
export interface TransportErrorData {
  /** The HTTP status, when there was a response. */
  status?: number;
  /** The wait the server asked for in `Retry-After`, in milliseconds. */
  retryAfterMs?: number;
  /** The request provably never reached the server (connection refused, unknown host). */
  notSent?: true;
}

/** A -32000 `Transport error: <detail>`. */
export function transportError(detail: string, data?: TransportErrorData): RpcError {
  return new RpcError(ErrorCode.TransportError, `Transport error: ${detail}`, data);
}

/** A transport error's data, or undefined for any other error. */
export function transportErrorData(error: unknown): TransportErrorData | undefined {
  if (!(error instanceof RpcError) || error.code !== ErrorCode.TransportError) return undefined;
  return (error.data ?? {}) as TransportErrorData;
}

// Failures before a connection existed: nothing was sent. Node's fetch names them in `cause.code`;
// browsers do not tell, so there every network failure counts as "may have reached the server".
const NOT_SENT_CODES = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT'];

/** The transport error for a fetch that threw (a network failure). */
export function networkError(error: unknown): RpcError {
  const code = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  const text = error instanceof Error ? error.message : String(error);
  if (typeof code !== 'string') return transportError(text);
  return transportError(`${text} (${code})`, NOT_SENT_CODES.includes(code) ? { notSent: true } : undefined);
}

/** `Retry-After` (seconds or an HTTP date) in milliseconds from now, or undefined when absent or unreadable. */
export function retryAfterMs(header: string | null): number | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
