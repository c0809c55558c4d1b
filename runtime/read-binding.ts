/**
 * Reads over GET (docs/protocol.md, "Reads over GET"): a `@readonly` method is also answered as
 * `GET <base>/<Interface>/<method>?<param>=<JSON>&...`, the REST binding's path with the params in
 * the query, so browsers, CDNs and proxies can cache what it answers. The call runs exactly as the
 * REST binding's POST does (contract check, validation, middleware, deadline, tracing); this file
 * reads the query and adds what caching needs to a success: `Cache-Control` (the `cache` option),
 * `ETag`, and 304 for a matching `If-None-Match`.
 */
import type { RequestContext } from './call-context.js';
import type { MaybePromise } from './call-outcome.js';
import { type CacheOptions, DEFAULT_CACHE_RULE, type ResolvedCacheRule, resolveCacheRules } from './cache-rules.js';
import { entityTagOf, ifNoneMatchMatches } from './entity-tag.js';
import type { HttpAnswer } from './http-answer.js';
import type { MethodEntry } from './method-table.js';
import { parseQueryParams } from './query-params.js';
import { JSON_RPC, type RestBinding } from './rest-binding.js';

export interface ReadBindingOptions {
  methods: ReadonlyMap<string, MethodEntry>;
  rest: RestBinding;
  /** The `cache` option. */
  cache?: CacheOptions;
  /** The longest query accepted, in characters (the server's `maxBodyBytes`: a query is a GET's body). */
  maxQueryLength: number;
  maxDepth: number;
}

export interface ReadBinding {
  /** Whether any method is answered over GET (CORS preflights then allow GET). */
  readonly any: boolean;
  /** The `@readonly` method a GET of `pathname` (under the base, no query) calls; undefined for any other path. */
  route(pathname: string): MethodEntry | undefined;
  /** Runs the call of `entry` with the params of `query` (the text after `?`). */
  answer(entry: MethodEntry, query: string, request: RequestContext): MaybePromise<HttpAnswer>;
}

/** The answer to a query past `maxBodyBytes`: 414, before it is read. */
export function uriTooLong(limit: number): HttpAnswer {
  return {
    status: 414,
    headers: { 'content-type': 'application/json' },
    body: `{"error":"URI Too Long","message":"the query is longer than ${limit} characters"}`,
  };
}

/** Whether a method is answered over GET: `@readonly`, and not a stream method (whose answer is no cacheable document). */
export function isRead(entry: MethodEntry): boolean {
  return entry.method.readonly === true && entry.method.stream !== true;
}

export function createReadBinding(options: ReadBindingOptions): ReadBinding {
  const { methods, rest, maxQueryLength, maxDepth } = options;
  const rules = resolveCacheRules(options.cache, methods);
  const any = [...methods.values()].some(isRead);

  function route(pathname: string): MethodEntry | undefined {
    if (!any) return undefined;
    const entry = rest.route(pathname);
    return entry === undefined || entry === JSON_RPC || !isRead(entry) ? undefined : entry;
  }

  function answer(entry: MethodEntry, query: string, request: RequestContext): MaybePromise<HttpAnswer> {
    if (query.length > maxQueryLength) return uriTooLong(maxQueryLength);
    const parsed = parseQueryParams(query, maxDepth);
    if (!parsed.ok) return rest.errorAnswer({ code: parsed.code, message: parsed.message });
    const rule = rules.get(entry.name) ?? DEFAULT_CACHE_RULE;
    const answered = rest.answerParams(entry, parsed.params, request);
    return answered instanceof Promise ? answered.then((settled) => cacheable(settled, rule, request)) : cacheable(answered, rule, request);
  }

  return { any, route, answer };
}

/** A success with its cache headers, or 304 when the client holds it already; other answers as they are. */
function cacheable(answer: HttpAnswer, rule: ResolvedCacheRule, request: RequestContext): HttpAnswer {
  if (answer.status !== 200 || answer.stream !== undefined) return answer;
  if (rule.cacheControl !== undefined) answer.headers['cache-control'] = rule.cacheControl;
  if (!rule.etag) return answer;
  const tag = entityTagOf(answer.body);
  answer.headers.etag = tag;
  if (!ifNoneMatchMatches(request.headers?.['if-none-match'], tag)) return answer;
  // RFC 9110 §15.4.5: a 304 carries the validator and Cache-Control, and no content headers.
  const headers: Record<string, string> = { etag: tag };
  if (rule.cacheControl !== undefined) headers['cache-control'] = rule.cacheControl;
  return { status: 304, headers, body: '' };
}
