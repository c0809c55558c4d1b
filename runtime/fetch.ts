/**
 * The web-standard adapter: `(Request) => Promise<Response>` for fetch-based runtimes
 * (Deno, Bun, Cloudflare Workers, service workers, Hono). JSON-RPC and the OpenAPI binding under
 * `basePath` (docs/protocol.md, "Paths").
 */
import { normalizeBasePath, pathUnderBase } from './base-path.js';
import type { BodyBudget } from './body-budget.js';
import type { BodyPace } from './body-pace.js';
import { answerStreamResponse } from './fetch-answer-stream.js';
import { isJsonMediaType } from './media-type.js';
import {
  BODY_UNREADABLE,
  copyAnswer,
  NOT_FOUND,
  PAYLOAD_TOO_LARGE,
  REQUEST_TIMEOUT,
  SERVICE_UNAVAILABLE,
  UNSUPPORTED_MEDIA_TYPE,
  type HttpAnswer,
} from './http-answer.js';
import type { RpcServer } from './server.js';

export interface FetchHandlerOptions {
  /**
   * Where the binding lives: JSON-RPC on `basePath` and one segment below it, the OpenAPI binding on
   * `<basePath>/<Interface>/<method>`, 404 for every other POST. Default `/`.
   */
  basePath?: string;
}

/** Answers every request with a `Response`; the promise never rejects. */
export function createFetchHandler(server: RpcServer, options: FetchHandlerOptions = {}): (request: Request) => Promise<Response> {
  const base = normalizeBasePath(options.basePath ?? '/', 'basePath');
  const cors = server.cors;
  /** An answer made here, with the CORS headers of the request's origin when CORS is on. */
  const refusal = (answer: HttpAnswer, request: Request) =>
    toResponse(cors === undefined ? answer : cors.decorate(copyAnswer(answer), request.headers.get('origin') ?? undefined));
  return async (request) => {
    const url = new URL(request.url);
    const pathname = url.pathname;
    if (request.method !== 'POST') {
      const readPath = request.method === 'GET' ? pathUnderBase(pathname, base) : undefined;
      if (readPath !== undefined && server.answersGet(readPath)) {
        // A read over GET (docs/protocol.md, "Reads over GET"): its params are in the query; a body is not read.
        const path = readPath + url.search;
        return toResponse(
          await server.handleHttp({ method: 'GET', path, body: '', headers: headerRecord(request.headers), signal: request.signal }),
        );
      }
      return toResponse(server.answerWithoutCall(request.method, pathname, cors === undefined ? undefined : headerRecord(request.headers)));
    }
    const path = pathUnderBase(pathname, base);
    if (path === undefined) return refusal(NOT_FOUND, request);
    if (!isJsonMediaType(request.headers.get('content-type'))) return refusal(UNSUPPORTED_MEDIA_TYPE, request);
    let body: Uint8Array | HttpAnswer;
    try {
      body = await readBody(request, server.maxBodyBytes, server.bodyBudget, server.bodyPace);
    } catch {
      // The stream failed (the client went away, a broken upload): the request is at fault, not the server.
      return refusal(BODY_UNREADABLE, request);
    }
    if (!(body instanceof Uint8Array)) return refusal(body, request);
    const headers = headerRecord(request.headers);
    const answer = await server.handleHttp({
      method: request.method,
      path,
      body,
      headers,
      signal: request.signal,
    });
    return answer.stream === undefined ? toResponse(answer) : answerStreamResponse(answer, answer.stream, request);
  };
}

/**
 * The body, or the answer refusing it: 413 once it passes `limit` (by its declared Content-Length
 * before reading), 503 when a chunk does not fit in `budget`, 408 when it arrives slower than `pace`
 * allows (the rest of the stream is cancelled, not read). Each chunk is taken from the budget as it
 * arrives; all of it is given back before this returns. Rejects when the stream fails.
 */
async function readBody(request: Request, limit: number, budget: BodyBudget, pace: BodyPace): Promise<Uint8Array | HttpAnswer> {
  if (Number(request.headers.get('content-length') ?? Number.NaN) > limit) return PAYLOAD_TOO_LARGE;
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  let tooSlow = false;
  const paced = pace.watch(() => {
    tooSlow = true;
    reader.cancel().catch(() => undefined);
  });
  try {
    const chunks: Uint8Array[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (tooSlow) return REQUEST_TIMEOUT;
      if (done) break;
      let refusal: HttpAnswer | undefined;
      if (paced.received + value.byteLength > limit) refusal = PAYLOAD_TOO_LARGE;
      else if (!budget.take(value.byteLength)) refusal = SERVICE_UNAVAILABLE;
      if (refusal) {
        await reader.cancel().catch(() => undefined);
        return refusal;
      }
      paced.received += value.byteLength;
      chunks.push(value);
    }
    if (chunks.length === 1) return chunks[0];
    const body = new Uint8Array(paced.received);
    let offset = 0;
    for (const chunk of chunks) {
      body.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return body;
  } catch (error) {
    // A stream cancelled because the body was too slow may reject the pending read instead.
    if (tooSlow) return REQUEST_TIMEOUT;
    throw error;
  } finally {
    pace.unwatch(paced);
    budget.give(paced.received);
  }
}

function headerRecord(headers: Headers): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, name) => {
    record[name] = value;
  });
  return record;
}

function toResponse(answer: HttpAnswer): Response {
  // 204 and 304 carry no body: a Response with one (even '') throws.
  const empty = answer.status === 204 || answer.status === 304;
  return new Response(empty ? null : answer.body, { status: answer.status, headers: answer.headers });
}
