/**
 * The client's side of one HTTP exchange: POST a JSON-RPC body, read the answer, and turn a
 * response object into its result or its error. Shared by HttpTransport and BatchingTransport.
 */
import type { RpcCall } from './client-call.js';
import { RpcError } from './errors.js';
import { networkError, transportError } from './transport-error.js';

/** What came back for one POST. */
export interface HttpAnswer {
  /** Whether the status is a success (2xx). */
  ok: boolean;
  status: number;
  statusText: string;
  text: string;
  /** The `Retry-After` header, when the answer had one. */
  retryAfter: string | null;
}

/**
 * POSTs `body` as JSON, asking for JSON (`headers` may ask otherwise). A network failure becomes a
 * transport error; an abort rethrows the signal's reason (the caller aborts with the error it wants
 * the call to fail with).
 */
export async function post(
  doFetch: typeof fetch,
  address: string,
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal,
): Promise<Response> {
  try {
    return await doFetch(address, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body,
      signal,
    });
  } catch (error) {
    throw signal.aborted ? signal.reason : networkError(error);
  }
}

/** Reads an answer's body (at most ERROR_BODY_LIMIT of an error answer's), as `post` fails. */
export async function readAnswer(response: Response, signal: AbortSignal): Promise<HttpAnswer> {
  try {
    const { ok, status, statusText } = response;
    const text = ok ? await response.text() : await leadingText(response);
    return { ok, status, statusText, text, retryAfter: response.headers.get('retry-after') };
  } catch (error) {
    throw signal.aborted ? signal.reason : networkError(error);
  }
}

/** POSTs `body` as JSON and reads the answer (`post`, then `readAnswer`). */
export async function postJson(
  doFetch: typeof fetch,
  address: string,
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal,
): Promise<HttpAnswer> {
  return readAnswer(await post(doFetch, address, headers, body, signal), signal);
}

/**
 * How much of an error answer's body (a non-2xx status) is read, in characters. The client needs at
 * most a JSON-RPC error object of it (a server refusing a batch); a proxy's 500 streaming 400 MB
 * once had the client read all of it (1.68 GB of memory at its peak).
 */
export const ERROR_BODY_LIMIT = 65_536;

/** The body as text, up to the chunk that takes it past ERROR_BODY_LIMIT; the rest is cancelled, not read. */
async function leadingText(response: Response): Promise<string> {
  // No stream (a fetch stand-in without one): nothing large to guard against.
  const reader = response.body?.getReader();
  if (!reader) return response.text();
  const decoder = new TextDecoder();
  let text = '';
  while (text.length <= ERROR_BODY_LIMIT) {
    const { done, value } = await reader.read();
    if (done) return text;
    text += decoder.decode(value, { stream: true });
  }
  reader.cancel().catch(() => undefined);
  return text;
}

/** The transport error of a non-2xx answer: `HTTP 503 Service Unavailable`, with status and `Retry-After`. */
export function statusError(answer: HttpAnswer): RpcError {
  const { status, statusText, retryAfter } = answer;
  return transportError(`HTTP ${status}${statusText ? ` ${statusText}` : ''}`, retryAfter === null ? { status } : { status, retryAfter });
}

/** The answer's body as JSON; throws a transport error when it is empty or not JSON. */
export function parseAnswer(answer: HttpAnswer): unknown {
  try {
    return JSON.parse(answer.text);
  } catch {
    // JSON.parse refuses an empty (or blank) text too; told apart only in the message.
    throw transportError(answer.text.trim() === '' ? 'empty response' : 'response is not JSON', { status: answer.status });
  }
}

interface ResponseMessage {
  result?: unknown;
  error?: { code?: unknown; message?: unknown; data?: unknown };
  id?: unknown;
}

/** Whether `message` is a JSON-RPC error response (`error.code` a number). */
export function isErrorResponse(message: unknown): message is ResponseMessage {
  const error = (message as ResponseMessage | null)?.error;
  return typeof error === 'object' && error !== null && typeof error.code === 'number';
}

/**
 * The result of the response `message` to request `id`; throws its `RpcError`, or a transport
 * error when it is no response to that request (its id is another, for errors as for results: an
 * error meant for another call must not fail this one).
 */
export function resultOf(message: unknown, id: number, status: number): unknown {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    throw transportError('response is not a JSON-RPC response object', { status });
  }
  const response = message as ResponseMessage;
  const failed = isErrorResponse(message);
  // An error may carry id null (or none): the server could not read the request's id (a parse error).
  if (response.id !== id && !(failed && response.id == null)) {
    throw transportError(`response id ${JSON.stringify(response.id)} does not match request id ${id}`, { status });
  }
  if (failed) {
    const { error } = response;
    throw new RpcError(error!.code as number, String(error!.message ?? ''), error!.data);
  }
  if (!('result' in response)) throw transportError('response has neither result nor error', { status });
  return response.result;
}

/**
 * Sends `call` alone: a request with `id`, or a notification when `id` is undefined (resolves to
 * undefined once the server took it). What HttpTransport does with every call.
 */
export async function sendAlone(doFetch: typeof fetch, address: string, call: RpcCall, id: number | undefined): Promise<unknown> {
  const request = { jsonrpc: '2.0', method: call.method, params: call.params, id };
  const answer = await postJson(doFetch, address, call.headers, JSON.stringify(request), call.signal);
  if (!answer.ok) throw statusError(answer);
  return id === undefined ? undefined : resultOf(parseAnswer(answer), id, answer.status);
}
