/**
 * The API reference page with a live console (docs/docs-page.md): an HTML shell, the page's own
 * script and styles, the viewer's files and the IDL source, all answered on GET/HEAD below one
 * path, each with the page's Content-Security-Policy.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { docsPageHeaders } from './content-security-policy.js';
import { type BindingPaths, checkDocsPath, DEFAULT_DOCS_PATH, normalizeDocsPath } from './docs-path.js';
import { contentTypeOf, FileCache, OWN_FILES, ownPackageRoot, VIEWER_FILES, viewerFolder } from './page-files.js';
import { pageHtml } from './page-html.js';

export interface DocsPageOptions {
  /** Where the page is served; its files are below it. Default `/__idl/docs`. */
  path?: string;
  /** The page's title. Default `API reference`. */
  title?: string;
  /**
   * Where the console sends JSON-RPC calls (the REST binding is below it). Default: the binding's
   * base as the adapter reports it (`basePath` of `listen`), else `/`.
   */
  rpcPath?: string;
  /** Where the viewer loads the OpenAPI document. Default `/openapi.json`. */
  openApiUrl?: string;
  /** Where the OpenRPC document is served, linked beside the OpenAPI one (docs/openrpc.md). Default `/openrpc.json`. */
  openRpcUrl?: string;
  /**
   * The IDL as written, for the IDL view (a text, or a function giving the current one). Default:
   * none, and the page prints the IDL from what the server's `rpc-idl` answers.
   */
  idlSource?: string | (() => string | undefined | Promise<string | undefined>);
  /**
   * The folder from which the viewer package (`swagger-ui-dist`) is resolved through
   * `node_modules`. Default: this package's folder, then the current folder.
   */
  viewerFrom?: string;
}

/** What `createDocsPage` gives: a request handler for GET/HEAD below its path, for any Node server. */
export interface DocsPage {
  /** The page's path (normalized). */
  readonly path: string;
  /**
   * Called by an adapter once, before serving: checks that the page takes no path where the
   * binding answers calls, and learns the binding's base (the console's default `rpcPath`).
   */
  mount(binding: BindingPaths): void;
  /**
   * Answers a GET or HEAD for the page or a file below it and returns true; returns false, doing
   * nothing, for every other request.
   */
  answer(req: IncomingMessage, res: ServerResponse): boolean;
}

/**
 * Creates the API reference page: pass it to `listen(server, { docsPage })` (the Vite plugin serves
 * it on its own). Nothing is read from disk until the first request.
 */
export function createDocsPage(options: DocsPageOptions = {}): DocsPage {
  const docsPath = normalizeDocsPath(options.path ?? DEFAULT_DOCS_PATH);
  const title = options.title ?? 'API reference';
  const openApiUrl = options.openApiUrl ?? '/openapi.json';
  if (openApiUrl === docsPath || openApiUrl.startsWith(`${docsPath}/`)) {
    throw new Error(`docs page: path ${docsPath} would hide the OpenAPI document at ${openApiUrl}; pick another path`);
  }
  const openRpcUrl = options.openRpcUrl ?? '/openrpc.json';
  if (openRpcUrl === docsPath || openRpcUrl.startsWith(`${docsPath}/`)) {
    throw new Error(`docs page: path ${docsPath} would hide the OpenRPC document at ${openRpcUrl}; pick another path`);
  }
  let rpcPath = options.rpcPath ?? '/';
  const files = new FileCache();
  const own = lazy(() => path.join(ownPackageRoot(), 'runtime', 'docs-page', 'assets'));
  let viewerFound: string | undefined;
  /**
   * The viewer's folder, looked up again on each request until it is found: installing it while
   * the server runs shows the reference on the next reload, no restart.
   */
  const viewer = (): string | undefined =>
    (viewerFound ??= options.viewerFrom
      ? viewerFolder(options.viewerFrom)
      : (viewerFolder(path.resolve(own(), '..', '..', '..')) ?? viewerFolder(process.cwd())));

  async function respond(res: ServerResponse, method: string, relative: string): Promise<void> {
    if (relative === '' || relative === '/') {
      // The page is of no use without its own files: fail here, saying what to install.
      own();
      // The console and the IDL view need nothing of the viewer: without it, the page is whole
      // but for the reference, which says what to install.
      const html = pageHtml({
        path: docsPath,
        title,
        rpcPath,
        openApiUrl,
        openRpcUrl,
        hasIdlSource: options.idlSource !== undefined,
        hasViewer: viewer() !== undefined,
      });
      return send(res, method, 200, 'text/html; charset=utf-8', html);
    }
    if (relative === '/idl') {
      const source = typeof options.idlSource === 'function' ? await options.idlSource() : options.idlSource;
      if (source === undefined) return send(res, method, 404, 'text/plain; charset=utf-8', 'No IDL source was given to the page.\n');
      return send(res, method, 200, 'text/plain; charset=utf-8', source);
    }
    const [, folder, name, ...rest] = relative.split('/');
    const viewerAt = folder === 'viewer' && rest.length === 0 && VIEWER_FILES.includes(name) ? viewer() : undefined;
    const file =
      rest.length > 0
        ? undefined
        : folder === 'assets' && OWN_FILES.includes(name)
          ? path.join(own(), name)
          : viewerAt
            ? path.join(viewerAt, name)
            : undefined;
    if (!file) return send(res, method, 404, 'text/plain; charset=utf-8', 'Not found\n');
    return send(res, method, 200, contentTypeOf(file), await files.read(file));
  }

  return {
    path: docsPath,
    mount(binding) {
      checkDocsPath(docsPath, binding);
      if (options.rpcPath === undefined) rpcPath = binding.basePath.replace(/\/+$/, '') || '/';
    },
    answer(req, res) {
      const method = req.method ?? 'GET';
      if (method !== 'GET' && method !== 'HEAD') return false;
      const url = req.url ?? '/';
      const queryStart = url.indexOf('?');
      const pathname = queryStart === -1 ? url : url.slice(0, queryStart);
      if (pathname !== docsPath && !pathname.startsWith(`${docsPath}/`)) return false;
      respond(res, method, pathname.slice(docsPath.length)).catch((error: unknown) => {
        // The detail (with paths of the server's disk) goes to the log, not to the visitor.
        console.error(`[unplugin-idl-rpc] docs page: ${error instanceof Error ? error.message : String(error)}`);
        const text = 'The docs page could not read its files: install unplugin-idl-rpc and swagger-ui-dist where the server runs.\n';
        if (!res.headersSent) send(res, method, 500, 'text/plain; charset=utf-8', text);
        else res.destroy();
      });
      return true;
    },
  };
}

function send(res: ServerResponse, method: string, status: number, contentType: string, body: string | Buffer): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { ...docsPageHeaders(contentType), 'content-length': Buffer.byteLength(body) });
  res.end(method === 'HEAD' ? undefined : body);
}

/** The value of `make`, made on first use (a failure is not kept: the next use tries again). */
function lazy<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
