/**
 * HTTP answers independent of any HTTP library: the type the core gives its adapters, and the fixed
 * answers for requests that carry no call or cannot be read.
 */

/** An HTTP answer, independent of any HTTP library. */
export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  /** The whole body; `''` when `stream` is there. */
  body: string;
  /** A body written over time (a stream method's `text/event-stream`): adapters write it chunk by chunk. */
  stream?: AnswerStream;
}

/** A body written over time (a stream method's text/event-stream). */
export interface AnswerStream {
  /**
   * The next chunk (whole SSE events, UTF-8 text), or undefined at the end. Called again only after
   * the previous chunk was written and the socket drained: that is the backpressure (nothing is
   * produced that was not asked for).
   */
  next(): Promise<string | undefined>;
  /**
   * The client went away or the adapter gives up: aborts the call (ctx.signal), runs the handler's
   * `finally`; idempotent; after it `next()` resolves undefined.
   */
  cancel(): void;
}

const JSON_HEADERS = { 'content-type': 'application/json' };

/** A fresh headers object per answer (callers may change it); a literal is cheaper than a spread. */
export const jsonHeaders = (): Record<string, string> => ({ 'content-type': 'application/json' });

/** HTTP answer for a non-POST request (exact body: docs/protocol.md §1). */
export const METHOD_NOT_ALLOWED: HttpAnswer = {
  status: 405,
  headers: { ...JSON_HEADERS, allow: 'POST' },
  body: '{"error":"Method Not Allowed"}',
};

/** HTTP answer for a POST outside the binding's base path (`basePath` of `listen` and the fetch handler). */
export const NOT_FOUND: HttpAnswer = {
  status: 404,
  headers: { ...JSON_HEADERS },
  body: '{"error":"Not Found"}',
};

/** HTTP answer for a body past `maxBodyBytes`. */
export const PAYLOAD_TOO_LARGE: HttpAnswer = {
  status: 413,
  headers: { ...JSON_HEADERS, connection: 'close' },
  body: '{"error":"Payload Too Large"}',
};

/** HTTP answer for a request whose Content-Type is not JSON (see media-type.ts for why). */
export const UNSUPPORTED_MEDIA_TYPE: HttpAnswer = {
  status: 415,
  headers: { ...JSON_HEADERS },
  body: '{"error":"Unsupported Media Type","message":"Content-Type must be application/json"}',
};

/** HTTP answer for a body that does not fit in `maxBodyBytesInFlight` now. */
export const SERVICE_UNAVAILABLE: HttpAnswer = {
  status: 503,
  headers: { ...JSON_HEADERS, connection: 'close', 'retry-after': '1' },
  body: '{"error":"Service Unavailable","message":"too many request bodies in flight, retry later"}',
};

/** HTTP answer for a body that arrived slower than `bodyGraceMs` and `minBodyBytesPerSecond` allow. */
export const REQUEST_TIMEOUT: HttpAnswer = {
  status: 408,
  // Written out, not spread: a literal lets bundlers drop the answer from browser bundles.
  headers: { 'content-type': 'application/json', connection: 'close' },
  body: '{"error":"Request Timeout","message":"the request body arrived too slowly"}',
};

/** HTTP answer for a body whose stream failed before it was read completely. */
export const BODY_UNREADABLE: HttpAnswer = {
  status: 400,
  headers: { ...JSON_HEADERS, connection: 'close' },
  body: '{"error":"Bad Request","message":"the request body could not be read"}',
};

/** A copy of one of the constant answers above, which callers may change. */
export function copyAnswer(answer: HttpAnswer): HttpAnswer {
  return { ...answer, headers: { ...answer.headers } };
}
