/**
 * Where a binding lives: its base path (`createMiddleware`'s `path`, `basePath` of `listen` and the
 * fetch handler). Adapters take the part of a request path under the base and give it to the core,
 * which routes it (docs/protocol.md, "Paths").
 */

/** A base path without its trailing slashes (`''` for `/`); throws when it does not start with '/'. */
export function normalizeBasePath(path: string, optionName: string): string {
  if (typeof path !== 'string' || !path.startsWith('/')) {
    throw new Error(`${optionName} must start with '/', got ${JSON.stringify(path)}`);
  }
  return path.replace(/\/+$/, '');
}

/**
 * The part of `pathname` (no query) under `base` (as `normalizeBasePath` gives it), starting with
 * '/': the base itself is '/'. Undefined when the path is outside the base (`/rpcx` is not under `/rpc`).
 */
export function pathUnderBase(pathname: string, base: string): string | undefined {
  if (base === '') return pathname;
  if (!pathname.startsWith(base)) return undefined;
  if (pathname.length === base.length) return '/';
  return pathname.charCodeAt(base.length) === 47 /* '/' */ ? pathname.slice(base.length) : undefined;
}

/** The path of a request target without its query string. */
export function pathnameOf(path: string): string {
  const queryStart = path.indexOf('?');
  return queryStart === -1 ? path : path.slice(0, queryStart);
}

/** The query of a request target: the text after its first `?` (without it), `''` when there is none. */
export function queryOf(path: string): string {
  const queryStart = path.indexOf('?');
  return queryStart === -1 ? '' : path.slice(queryStart + 1);
}
