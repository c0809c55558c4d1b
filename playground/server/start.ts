import { existsSync, readFileSync } from 'node:fs';
import { listen, type RpcHttpServer, type RpcServer } from 'unplugin-idl-rpc/runtime';
import { createDocsPage } from 'unplugin-idl-rpc/runtime/docs-page';
import { createCheckoutServer } from '../checkout.idl';
import { createCheckoutService } from '../service/checkout-service.js';
import type { CheckoutStore } from '../service/store.js';
import { checkoutMcp } from './mcp.js';

export interface StartOptions {
  /** Default: SERVER_PORT, else 8080; 0 picks a free port. */
  port?: number;
  /** Default: all interfaces. */
  host?: string;
  /** Default: a fresh in-memory store with the playground catalog. */
  store?: CheckoutStore;
  /**
   * The OpenAPI document served on `GET /openapi.json`. Default: the `openapi.json` the server
   * build wrote beside this bundle, when there is one; `false` serves none.
   */
  openApiDocument?: object | false;
  /**
   * The OpenRPC document served on `GET /openrpc.json` and answered by `rpc.discover`. Default: the
   * `openrpc.json` the server build wrote beside this bundle, when there is one; `false` serves none.
   */
  openRpcDocument?: object | false;
  /** The API reference page with its console on `GET /__idl/docs` (docs/docs-page.md). Default true. */
  docsPage?: boolean;
  /**
   * Origins of pages on other sites that may call the service (CORS), or `'*'` for any. Default:
   * none, so only pages served from the service's own origin can call it from a browser.
   */
  corsOrigins?: readonly string[] | '*';
  /**
   * The service's tools for AI agents over MCP on `POST /mcp` (server/mcp.ts, docs/mcp.md "The
   * playground"), with the IDL source and the documents above as resources. Pages on the
   * `corsOrigins` listed may reach it too (not any page with `'*'`). Default true.
   */
  mcp?: boolean;
  /** Shut down gracefully on SIGTERM and SIGINT (calls in flight are answered first). Default false. */
  shutdownOnSignals?: boolean;
}

/** `CORS_ORIGINS` (comma separated, or `*`) as `corsOrigins`; undefined when unset or empty. */
export function corsOriginsFromEnvironment(text: string | undefined): readonly string[] | '*' | undefined {
  const origins = (text ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter((origin) => origin !== '');
  if (origins.length === 0) return undefined;
  return origins.includes('*') ? '*' : origins;
}

/** The openapi.json or openrpc.json that `vite build --ssr` writes next to the server bundle, if any. */
function documentBesideBundle(fileName: 'openapi.json' | 'openrpc.json'): object | undefined {
  const file = new URL(`./${fileName}`, import.meta.url);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as object) : undefined;
}

/**
 * Starts the checkout service as a standalone HTTP server: JSON-RPC 2.0 on `/` and one segment
 * below it (`/rpc`), plus the OpenAPI binding on `.../<Interface>/<method>`, 404 on other paths,
 * its document on `GET /openapi.json`, the OpenRPC document on `GET /openrpc.json` (and from
 * `rpc.discover`), the API reference page on `GET /__idl/docs` and the MCP binding on `POST /mcp`
 * (GET and DELETE of `/mcp` get 405). Unexpected
 * handler errors are logged, not sent.
 */
export function startCheckoutServer(options: StartOptions = {}): Promise<RpcHttpServer> {
  const rpcServer = createPlaygroundServer(options);
  const docsPage = options.docsPage === false ? undefined : createDocsPage({ title: 'Checkout API' });
  return listen(rpcServer, { port: options.port, host: options.host, docsPage, shutdownSignals: options.shutdownOnSignals ?? false });
}

/**
 * The checkout service's RPC server, not listening yet: its handlers over the store, the documents
 * beside the bundle, CORS and the MCP binding, as `startCheckoutServer` serves them.
 */
export function createPlaygroundServer(options: Omit<StartOptions, 'port' | 'host' | 'docsPage' | 'shutdownOnSignals'> = {}): RpcServer {
  const openApiDocument = options.openApiDocument === false ? undefined : (options.openApiDocument ?? documentBesideBundle('openapi.json'));
  const openRpcDocument = options.openRpcDocument === false ? undefined : (options.openRpcDocument ?? documentBesideBundle('openrpc.json'));
  const mcp = options.mcp === false ? undefined : checkoutMcp({ corsOrigins: options.corsOrigins, openApiDocument, openRpcDocument });
  const cors = options.corsOrigins === undefined ? undefined : { origins: options.corsOrigins };
  return createCheckoutServer(createCheckoutService({ store: options.store }), { openApiDocument, openRpcDocument, cors, mcp });
}
