/**
 * One HTTP request of `-conform` and its answer, as plain data (so a request can be printed as `curl`,
 * sent again while shrinking, and an answer quoted in the report).
 */

export interface HttpRequest {
  method: 'POST' | 'GET';
  url: string;
  headers: Readonly<Record<string, string>>;
  body?: string;
}

export interface HttpAnswer {
  status: number;
  /** The `content-type` header, '' when absent. */
  contentType: string;
  text: string;
  /** The body passed MAX_ANSWER_BYTES: `text` is empty, and the answer breaks the rule `answer-size`. */
  tooLarge?: true;
}

/** The server could not be reached at all (refused, unknown host, reset before an answer). */
export class ServerUnreachableError extends Error {
  override name = 'ServerUnreachableError';
}

/** How long one answer may take before the request counts as unanswered. */
export const ANSWER_TIMEOUT_MS = 10_000;

/**
 * Sends the request. A timeout gives `undefined` (reported as a violation: the server took the request
 * and gave no answer); a connection that cannot be made throws ServerUnreachableError.
 */
export async function exchange(request: HttpRequest, timeoutMs = ANSWER_TIMEOUT_MS): Promise<HttpAnswer | undefined> {
  let response: Response;
  try {
    response = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'manual',
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'TimeoutError') return undefined;
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new ServerUnreachableError(cause?.code ?? cause?.message ?? (error as Error).message);
  }
  const contentType = response.headers.get('content-type') ?? '';
  try {
    const text = await boundedText(response, MAX_ANSWER_BYTES);
    return text === undefined
      ? { status: response.status, contentType, text: '', tooLarge: true }
      : { status: response.status, contentType, text };
  } catch {
    return undefined;
  }
}

/** The largest answer body read: past it the answer is reported as too large, and the rest is not read. */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/** The body as text, or undefined (and the connection cancelled) once it passes `limit` bytes: a server cannot fill the memory. */
async function boundedText(response: Response, limit: number): Promise<string | undefined> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > limit) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
