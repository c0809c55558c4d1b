/**
 * Where the API reference page may live: never on a path where the RPC binding answers a call
 * (docs/protocol.md, "Paths"), so the page can never shadow one of the user's methods.
 */

/** The default path of the page. */
export const DEFAULT_DOCS_PATH = '/__idl/docs';

/** The page's path without trailing slashes; throws when it is not an absolute path of plain segments. */
export function normalizeDocsPath(path: string): string {
  if (typeof path !== 'string' || !/^(?:\/[A-Za-z0-9._~-]+)+\/*$/.test(path) || /\/\.\.?(?:\/|$)/.test(path)) {
    throw new Error(`docs page: path must be an absolute path of plain segments such as '/__idl/docs', got ${JSON.stringify(path)}`);
  }
  return path.replace(/\/+$/, '');
}

/** Where the binding answers calls, as the page's start-up check needs to know it. */
export interface BindingPaths {
  /** The binding's base path (`basePath` of `listen`, `rpcPath` of the Vite plugin); `/` for the root. */
  basePath: string;
  /** `"<Interface>.<method>"` of every registered method. */
  methodNames: Iterable<string>;
}

/**
 * Throws when the page at `docsPath` (or a file below it) would take a path where the binding
 * answers: the base itself and one segment below it are JSON-RPC, `<base>/<Interface>/<method>` is
 * the REST binding of a registered method.
 */
export function checkDocsPath(docsPath: string, binding: BindingPaths): void {
  const base = binding.basePath.replace(/\/+$/, '');
  if (docsPath !== base && !docsPath.startsWith(`${base}/`)) return;
  const segments = docsPath.slice(base.length).split('/').filter(Boolean);
  if (segments.length <= 1) {
    throw new Error(
      `docs page: path ${docsPath} is where JSON-RPC is served (the base ${base || '/'} and one segment below it); pick another, e.g. '${DEFAULT_DOCS_PATH}'`,
    );
  }
  const names = new Set(binding.methodNames);
  const all = docsPath.split('/').filter(Boolean);
  const method = `${all[all.length - 2]}.${all[all.length - 1]}`;
  if (names.has(method)) {
    throw new Error(`docs page: path ${docsPath} is the REST binding of ${method}; pick another, e.g. '${DEFAULT_DOCS_PATH}'`);
  }
}
