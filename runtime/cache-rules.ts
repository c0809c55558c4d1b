/**
 * The `cache` option of `createRpcServer`: per `@readonly` method, the `Cache-Control` of its GET
 * answers and whether they carry an `ETag` (docs/runtime.md, "Reads over GET"). Checked once at
 * start-up, each rule written as its header text once.
 */
import type { MethodEntry } from './method-table.js';

/** How the GET answers of one `@readonly` method may be cached. Every member is optional. */
export interface CacheRule {
  /** `max-age`: seconds a browser (and any cache) may reuse the answer without asking. */
  maxAgeSeconds?: number;
  /** `s-maxage`: seconds shared caches (CDNs, proxies) may reuse it, instead of `maxAgeSeconds`. */
  sharedMaxAgeSeconds?: number;
  /** `stale-while-revalidate`: seconds a cache may still give a stale answer while it asks again. */
  staleWhileRevalidateSeconds?: number;
  /** `private`: only the caller's own cache (the answer depends on who asks: cookies, `authorization`). */
  private?: boolean;
  /** `no-cache`: caches keep the answer but ask again each time (cheap with the ETag: a 304). */
  noCache?: boolean;
  /** Whether answers carry an `ETag` and `If-None-Match` gets 304. Default true. */
  etag?: boolean;
}

/** The `cache` option: rules by `"<Interface>.<method>"`. */
export type CacheOptions = Readonly<Record<string, CacheRule>>;

/** A rule, checked and written out. */
export interface ResolvedCacheRule {
  /** The `Cache-Control` header's value; undefined when the rule sets none. */
  cacheControl: string | undefined;
  etag: boolean;
}

/** The default of a `@readonly` method without a rule: an ETag, no Cache-Control. */
export const DEFAULT_CACHE_RULE: ResolvedCacheRule = { cacheControl: undefined, etag: true };

const SECONDS: readonly [keyof CacheRule, string][] = [
  ['maxAgeSeconds', 'max-age'],
  ['sharedMaxAgeSeconds', 's-maxage'],
  ['staleWhileRevalidateSeconds', 'stale-while-revalidate'],
];

/**
 * The rules by method name, checked: each must name a registered `@readonly` method that is not a
 * stream method, with whole non-negative seconds. Throws at start-up otherwise.
 */
export function resolveCacheRules(
  option: CacheOptions | undefined,
  methods: ReadonlyMap<string, MethodEntry>,
): ReadonlyMap<string, ResolvedCacheRule> {
  const rules = new Map<string, ResolvedCacheRule>();
  if (option === undefined) return rules;
  if (typeof option !== 'object' || option === null) throw new Error('createRpcServer: cache must be an object of rules by method name');
  for (const [name, rule] of Object.entries(option)) {
    const where = `createRpcServer: cache[${JSON.stringify(name)}]`;
    const entry = methods.get(name);
    if (entry === undefined) throw new Error(`${where}: no such method (write "<Interface>.<method>")`);
    if (entry.method.readonly !== true || entry.method.stream === true) {
      throw new Error(`${where}: only @readonly methods that are not stream methods are answered over GET, and so cached`);
    }
    if (typeof rule !== 'object' || rule === null) throw new Error(`${where}: must be an object like { maxAgeSeconds: 60 }`);
    rules.set(name, resolveRule(rule, where));
  }
  return rules;
}

function resolveRule(rule: CacheRule, where: string): ResolvedCacheRule {
  const directives: string[] = [];
  if (rule.private === true) {
    if (rule.sharedMaxAgeSeconds !== undefined)
      throw new Error(`${where}: sharedMaxAgeSeconds is for shared caches, which private excludes`);
    directives.push('private');
  }
  if (rule.noCache === true) directives.push('no-cache');
  for (const [member, directive] of SECONDS) {
    const seconds = rule[member];
    if (seconds === undefined) continue;
    if (typeof seconds !== 'number' || !Number.isInteger(seconds) || seconds < 0) {
      throw new Error(`${where}: ${member} must be a whole number of seconds, got ${JSON.stringify(seconds)}`);
    }
    directives.push(`${directive}=${seconds}`);
  }
  return { cacheControl: directives.length > 0 ? directives.join(', ') : undefined, etag: rule.etag !== false };
}
