/**
 * The client's transport errors: -32000 `Transport error: <detail>` (docs/protocol.md §1), with
 * what a retry needs to know in `data`.
 */
import { type ErrorCode, RpcError } from './errors.js';

// ErrorCode.TransportError, written out: importing the table would put all of it in every browser bundle.
export const TRANSPORT_ERROR: (typeof ErrorCode)['TransportError'] = -32000;

/** The `data` of a transport error; each member only when known. */
export interface TransportErrorData {
  /** The HTTP status, when there was a response. */
  status?: number;
  /** The answer's `Retry-After` header, as sent (seconds or an HTTP date). */
  retryAfter?: string;
  /** The network error's code, e.g. `ECONNREFUSED` (Node's fetch names it; browsers do not). */
  cause?: string;
  /** What is wrong with a result that is not what the IDL says (`validateResults`), by JSON path. */
  errors?: { path: string; message: string }[];
}

/** A -32000 `Transport error: <detail>`. */
export function transportError(detail: string, data?: TransportErrorData): RpcError {
  return new RpcError(TRANSPORT_ERROR, `Transport error: ${detail}`, data);
}

/** The transport error for a fetch that threw (a network failure). */
export function networkError(error: unknown): RpcError {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  const text = error instanceof Error ? error.message : String(error);
  return typeof cause === 'string' ? transportError(`${text} (${cause})`, { cause }) : transportError(text);
}
