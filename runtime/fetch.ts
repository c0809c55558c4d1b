/**
 * The web-standard adapter: `(Request) => Promise<Response>` for fetch-based runtimes
 * (Deno, Bun, Cloudflare Workers, service workers, Hono). JSON-RPC and the OpenAPI binding under
 * `basePath` (docs/protocol.md, "Paths").
 */
import { normalizeBasePath, pathUnderBase } from './base-path.js';
import type { BodyBudget } from './body-budget.js';
import { isJsonMediaType } from './media-type.js';
import {
  BODY_UNREADABLE,
  copyAnswer,
  NOT_FOUND,
  PAYLOAD_TOO_LARGE,
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
    const pathname = new URL(request.url).pathname;
    if (request.method !== 'POST') {
      return toResponse(server.answerWithoutCall(request.method, pathname, cors === undefined ? undefined : headerRecord(request.headers)));
    }
    const path = pathUnderBase(pathname, base);
    if (path === undefined) return refusal(NOT_FOUND, request);
    if (!isJsonMediaType(request.headers.get('content-type'))) return refusal(UNSUPPORTED_MEDIA_TYPE, request);
    let body: Uint8Array | HttpAnswer;
    try {
      body = await readBody(request, server.maxBodyBytes, server.bodyBudget);
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
    return toResponse(answer);
  };
}

/**
 * The body, or the answer refusing it: 413 once it passes `limit`, 503 when it does not fit in
 * `budget` (the rest of the stream is cancelled, not read). A declared Content-Length is taken from
 * the budget up front, other bodies chunk by chunk; all of it is given back before this returns.
 * Rejects when the stream fails.
 */
async function readBody(request: Request, limit: number, budget: BodyBudget): Promise<Uint8Array | HttpAnswer> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  let taken = 0;
  if (Number.isFinite(declared)) {
    if (declared > limit) return PAYLOAD_TOO_LARGE;
    if (!budget.take(declared)) return SERVICE_UNAVAILABLE;
    taken = declared;
  }
  try {
    if (!request.body) return new Uint8Array(0);
    const reader = request.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      let refusal: HttpAnswer | undefined;
      if (size > limit) refusal = PAYLOAD_TOO_LARGE;
      else if (size > taken && !budget.take(size - taken)) refusal = SERVICE_UNAVAILABLE;
      else taken = Math.max(taken, size);
      if (refusal) {
        await reader.cancel().catch(() => undefined);
        return refusal;
      }
      chunks.push(value);
    }
    if (chunks.length === 1) return chunks[0];
    const body = new Uint8Array(size);
    let offset = 0;
    for (const chunk of chunks) {
      body.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return body;
  } finally {
    budget.give(taken);
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
  return new Response(answer.status === 204 ? null : answer.body, { status: answer.status, headers: answer.headers });
}
