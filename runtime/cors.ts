/**
 * Cross-origin calls from browsers (the `cors` option of `createRpcServer`). Off by default: then no
 * answer carries a CORS header and every OPTIONS is 405, so a page on another origin cannot make a
 * call with a JSON body (its preflight fails). With it, a preflight from an allowed origin answers
 * 204 with the headers the browser asks for, and every answer to an allowed origin says so.
 */
import { CONTRACT_HEADER } from './client-call.js';
import type { HttpAnswer } from './http-answer.js';

/**
 * The request headers a cross-origin call may send unless `allowedHeaders` says otherwise: the
 * JSON Content-Type every call needs, `authorization` for tokens, and the contract header generated
 * clients send (docs/protocol.md, "Contract header"). One list, so a header our client starts
 * sending is added here once.
 */
export const DEFAULT_CORS_ALLOWED_HEADERS: readonly string[] = ['content-type', 'authorization', CONTRACT_HEADER];

/** How long a browser may reuse a preflight's answer, unless `maxAgeSeconds` says otherwise. */
export const DEFAULT_CORS_MAX_AGE_SECONDS = 600;

export interface CorsOptions {
  /**
   * The origins allowed to call (`scheme://host[:port]`, as browsers send them in `Origin`): a list,
   * a function deciding for each origin, or `'*'` for any origin.
   */
  origins: '*' | readonly string[] | ((origin: string) => boolean);
  /**
   * Let browsers send cookies and HTTP authentication (`fetch(..., { credentials: 'include' })`)
   * and read the answer. With `'*'`, the caller's origin is echoed, since browsers refuse `*` then.
   * Default false.
   */
  credentials?: boolean;
  /** `Access-Control-Max-Age` of preflight answers. Default 600. */
  maxAgeSeconds?: number;
  /** Request headers a call may carry (`Access-Control-Allow-Headers`). Default `DEFAULT_CORS_ALLOWED_HEADERS`. */
  allowedHeaders?: readonly string[];
  /** Response headers a page may read besides the simple ones (`Access-Control-Expose-Headers`). Default none. */
  exposedHeaders?: readonly string[];
}

/** Request headers as adapters have them: lower-case names (Node's `req.headers` fits). */
export type RequestHeaders = Readonly<Record<string, string | readonly string[] | undefined>>;

/** What adapters use of the `cors` option (`RpcServer.cors`). */
export interface CorsRules {
  /** Whether a request's `Origin` may call; false without one. */
  allows(origin: string | undefined): boolean;
  /** The 204 answer to a preflight from an allowed origin; undefined for any other request. */
  preflight(method: string, headers: RequestHeaders | undefined): HttpAnswer | undefined;
  /** Adds the CORS headers of `origin` to an answer (in place) when it is allowed; returns the answer. */
  decorate(answer: HttpAnswer, origin: string | undefined): HttpAnswer;
}

/** The checked `cors` option: which origin gets which headers. */
export class CorsPolicy implements CorsRules {
  readonly #allows: (origin: string) => boolean;
  readonly #anyOrigin: boolean;
  readonly #credentials: boolean;
  readonly #preflightHeaders: Record<string, string>;
  readonly #exposed: string | undefined;

  /**
   * `bindingHeaders`: request headers a mounted binding's clients send, allowed unless `allowedHeaders`
   * is given; `methods`: the verbs preflights allow (`GET, POST` when `@readonly` methods answer GETs).
   */
  constructor(options: CorsOptions, bindingHeaders: readonly string[] = [], methods = 'POST') {
    if (typeof options !== 'object' || options === null) throw new Error('createRpcServer: cors must be an object like { origins: [...] }');
    const { origins } = options;
    if (origins === '*') {
      this.#allows = () => true;
    } else if (typeof origins === 'function') {
      this.#allows = (origin) => origins(origin) === true;
    } else if (Array.isArray(origins)) {
      const allowed = new Set(origins.map(checkedOrigin));
      this.#allows = (origin) => allowed.has(origin);
    } else {
      throw new Error(`createRpcServer: cors.origins must be '*', a list of origins or a function, got ${JSON.stringify(origins)}`);
    }
    this.#anyOrigin = origins === '*' && !options.credentials;
    this.#credentials = options.credentials === true;
    const maxAge = options.maxAgeSeconds ?? DEFAULT_CORS_MAX_AGE_SECONDS;
    if (!Number.isInteger(maxAge) || maxAge < 0) {
      throw new Error(`createRpcServer: cors.maxAgeSeconds must be a whole number of seconds, got ${JSON.stringify(maxAge)}`);
    }
    this.#preflightHeaders = {
      'access-control-allow-methods': methods,
      'access-control-allow-headers': headerList(
        options.allowedHeaders ?? [...DEFAULT_CORS_ALLOWED_HEADERS, ...bindingHeaders],
        'allowedHeaders',
      ),
      'access-control-max-age': String(maxAge),
    };
    const exposed = options.exposedHeaders === undefined ? '' : headerList(options.exposedHeaders, 'exposedHeaders');
    this.#exposed = exposed === '' ? undefined : exposed;
  }

  /** Whether a request's `Origin` may call; false without one (a same-origin or non-browser request). */
  allows(origin: string | undefined): origin is string {
    return origin !== undefined && origin !== '' && this.#allows(origin);
  }

  /**
   * The answer to a preflight (an OPTIONS with `Origin` and `Access-Control-Request-Method`) from an
   * allowed origin: 204 with the CORS headers. Undefined for any other request, which keeps its 405.
   */
  preflight(method: string, headers: RequestHeaders | undefined): HttpAnswer | undefined {
    if (method !== 'OPTIONS' || headers === undefined) return undefined;
    const origin = single(headers.origin);
    if (!this.allows(origin) || single(headers['access-control-request-method']) === undefined) return undefined;
    const answer: HttpAnswer = { status: 204, headers: { ...this.#preflightHeaders }, body: '' };
    this.#addOriginHeaders(answer.headers, origin);
    answer.headers.vary = 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers';
    return answer;
  }

  /** Adds the CORS headers of `origin` to an answer (in place), when it is allowed; returns the answer. */
  decorate(answer: HttpAnswer, origin: string | undefined): HttpAnswer {
    if (this.allows(origin)) {
      this.#addOriginHeaders(answer.headers, origin);
      if (this.#exposed !== undefined) answer.headers['access-control-expose-headers'] = this.#exposed;
    } else if (!this.#anyOrigin) {
      // The answer depends on Origin: caches must not give one origin's answer to another.
      answer.headers.vary = 'Origin';
    }
    return answer;
  }

  #addOriginHeaders(headers: Record<string, string>, origin: string): void {
    headers['access-control-allow-origin'] = this.#anyOrigin ? '*' : origin;
    if (!this.#anyOrigin) headers.vary = 'Origin';
    if (this.#credentials) headers['access-control-allow-credentials'] = 'true';
  }
}

/** An entry of `origins`, checked: browsers send `scheme://host[:port]`, nothing more, so nothing else can match. */
function checkedOrigin(origin: unknown): string {
  if (typeof origin === 'string') {
    try {
      const url = new URL(origin);
      if (url.origin === origin) return origin;
    } catch {
      // reported below
    }
  }
  throw new Error(
    `createRpcServer: cors.origins: ${JSON.stringify(origin)} is not an origin; write it as browsers send it, like "https://app.example.com" or "http://localhost:5173" (no path, no trailing slash)`,
  );
}

function headerList(names: readonly string[], option: string): string {
  if (!Array.isArray(names) || names.some((name) => typeof name !== 'string' || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))) {
    throw new Error(`createRpcServer: cors.${option} must be a list of header names, got ${JSON.stringify(names)}`);
  }
  return names.map((name) => name.toLowerCase()).join(', ');
}

function single(value: string | readonly string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : value?.[0];
}
