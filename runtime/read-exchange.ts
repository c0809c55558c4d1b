/**
 * The client's side of a read over GET (docs/protocol.md, "Reads over GET"): a call of a
 * `@readonly` method sent as `GET <base>/<Interface>/<method>?<param>=<JSON>` when the transport's
 * `reads` option is `readOverGet`, and its REST answer (the bare result, or `{code, message, data}`)
 * turned into the result or the call's `RpcError`. Browsers and their HTTP caches see an ordinary
 * GET: a fresh cached answer is used without asking, a stale one is revalidated with its ETag.
 */
import type { ReadSender } from './client-call.js';
import { RpcError } from './errors.js';
import { parseAnswer, readAnswer, statusError, type HttpAnswer } from './json-rpc-exchange.js';
import { networkError } from './transport-error.js';

/**
 * The address of a read: the REST path below `baseAddress` (the JSON-RPC endpoint, as given to the
 * transport), one query parameter per parameter in IDL order, its JSON text percent-encoded; a
 * parameter left out (`undefined`) is not sent, so the server gives it its default.
 */
export function readAddress(baseAddress: string, method: string, names: readonly string[], params: readonly unknown[]): string {
  const dot = method.lastIndexOf('.');
  const path = `${encodeURIComponent(method.slice(0, dot))}/${encodeURIComponent(method.slice(dot + 1))}`;
  let query = '';
  for (let index = 0; index < names.length && index < params.length; index++) {
    if (params[index] === undefined) continue;
    query += `${query === '' ? '?' : '&'}${encodeURIComponent(names[index])}=${encodeURIComponent(JSON.stringify(params[index]))}`;
  }
  return `${baseAddress.replace(/\/+$/, '')}/${path}${query}`;
}

/**
 * Sends a call of a `@readonly` method (`call.read`: its parameter names) as a GET and gives its
 * result, or throws its error: the `reads` option of `HttpTransport`.
 */
export const readOverGet: ReadSender = async (doFetch, baseAddress, call) => {
  const { signal } = call;
  let response: Response;
  try {
    response = await doFetch(readAddress(baseAddress, call.method, call.read, call.params), {
      method: 'GET',
      headers: { accept: 'application/json', ...call.headers },
      signal,
    });
  } catch (error) {
    throw signal.aborted ? signal.reason : networkError(error);
  }
  const answer = await readAnswer(response, signal);
  if (answer.ok) return parseAnswer(answer);
  throw restError(answer) ?? statusError(answer);
};

/** The `RpcError` of a REST error body (`{code, message, data?}`), or undefined for any other answer (a proxy's 502). */
function restError(answer: HttpAnswer): RpcError | undefined {
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null) return undefined;
  const { code, message, data } = body as { code?: unknown; message?: unknown; data?: unknown };
  if (typeof code !== 'number' || typeof message !== 'string') return undefined;
  return new RpcError(code, message, data);
}
