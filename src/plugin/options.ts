/**
 * The options of the bundler plugin, and their defaults.
 */
import path from 'node:path';
import type { OpenApiContact, OpenApiLicense } from '../openapi/index.js';
import type { CacheOptions } from '../../runtime/cache-rules.js';
import { CHECK_LEVELS, type CheckLevel, isCheckLevel } from '../breaking/levels.js';
import { type DocsPagePluginOptions, type ResolvedDocsPageOptions, resolveDocsPageOptions } from './docs-page-options.js';
import { DEFAULT_MAX_IDL_BYTES } from './read-idl-file.js';
import { type McpPluginOptions, resolveMcpOptions, type ResolvedMcpOptions } from './mcp-options.js';
import { type ResolvedMockOptions, resolveMockOptions } from './mock-options.js';

export type { McpPluginOptions, ResolvedMcpOptions };

/** How `openapi.json` is written next to the bundle. */
export interface OpenApiOptions {
  /** File name inside the output folder. Default `openapi.json`. */
  fileName?: string;
  /** OpenAPI version of the document. Default `3.1`. */
  version?: '3.1' | '3.0';
  /**
   * `servers[0].url` of the document: where the binding (`POST <url>/<Interface>/<method>`) is
   * served. Default: `rpcPath` when `server` is set (every build: dev, client, SSR); otherwise none
   * (only the deployment knows it).
   */
  serverUrl?: string;
  /**
   * What the IDL cannot say about the API, for `info` of the document: `license` and `contact`
   * (linters warn without them). Default: neither.
   */
  info?: OpenApiInfoOptions;
}

/** The parts of the document's `info` that come from the options rather than the IDL. */
export interface OpenApiInfoOptions {
  license?: OpenApiLicense;
  contact?: OpenApiContact;
}

/** `openapi` with its defaults filled in. */
export interface ResolvedOpenApiOptions {
  fileName: string;
  version: '3.1' | '3.0';
  serverUrl?: string;
  info: OpenApiInfoOptions;
  /** The plugin's `httpStatus`: the document lists those errors under their statuses. */
  httpStatus?: Readonly<Record<string, number>>;
}

/** How `openrpc.json` (the OpenRPC document of the JSON-RPC API, docs/openrpc.md) is written next to the bundle. */
export interface OpenRpcOptions {
  /** File name inside the output folder (and its path on the dev server). Default `openrpc.json`. */
  fileName?: string;
  /**
   * `servers[0].url`: the absolute address of the JSON-RPC endpoint (`https://api.example.com/rpc`).
   * OpenRPC requires an absolute URI, which only the deployment knows. Default none.
   */
  serverUrl?: string;
  /** `license` and `contact` for `info`. Default: those of `openapi.info`. */
  info?: OpenApiInfoOptions;
}

/** `openrpc` with its defaults filled in. */
export interface ResolvedOpenRpcOptions {
  fileName: string;
  serverUrl?: string;
  info: OpenApiInfoOptions;
}

/** The RPC server the Vite dev server (and `vite preview`) hosts. */
export interface DevServerOptions {
  /** The `.idl` file whose interfaces are served, relative to the Vite root. */
  idl: string;
  /**
   * The module with the handlers, relative to the Vite root. It exports one handler object per IDL
   * interface, named after the interface (`export const CartService: CartService = { ... }`), or
   * a default export holding them (`export default { CartService, OrderService }`). May be left
   * out with `mock` (docs/mock.md).
   */
  handlers?: string;
  /**
   * Where `vite build` writes the server build that `vite preview` runs, relative to the Vite
   * root. Default `node_modules/.idl-rpc/server` (kept out of the public output folder).
   */
  outDir?: string;
  /**
   * The MCP binding (docs/mcp.md) beside the RPC endpoint, at `mcp.path` (default `/mcp`) of the dev
   * and preview servers: `mcpBinding`'s options but `resources`, which the plugin gives (the `.idl`
   * source, the OpenAPI and OpenRPC documents). Default: none, and no MCP code is loaded.
   */
  mcp?: McpPluginOptions;
  /**
   * `createRpcServer`'s `cache` for the hosted server: the Cache-Control (and ETag) of the GET
   * answers of `@readonly` methods, by `"<Interface>.<method>"` (docs/runtime.md, "Reads over GET").
   * Default: an ETag and no Cache-Control.
   */
  cache?: CacheOptions;
}

/** `server` with its defaults filled in. */
export interface ResolvedDevServerOptions {
  idl: string;
  /** Undefined only in mock mode without handlers. */
  handlers?: string;
  outDir: string;
  mcp?: ResolvedMcpOptions;
  cache?: CacheOptions;
}

/** The breaking-change check of every build (docs/breaking.md). */
export interface BreakingOptions {
  /**
   * The baseline: `git:<rev>` (each `.idl` at its own path at that revision, with the files it
   * imports), `git:<rev>:<path>`, an `.idl` file or an IDL JSON file (what `rpc-idl` serves); paths
   * relative to the project root.
   */
  against: string;
  /** Only this `.idl` (relative to the project root) is checked. Default: every `.idl` the build loads. */
  idl?: string;
  /** The clients to protect: `wire` (default), `openapi` or `source` (docs/breaking.md, "Levels"). */
  level?: CheckLevel;
  /** Fail the build on a breaking change instead of warning (never in the Vite dev server). Default false. */
  fail?: boolean;
}

export interface ResolvedBreakingOptions {
  against: string;
  idl?: string;
  level: CheckLevel;
  fail: boolean;
}

export interface IdlRpcPluginOptions {
  /** Write `<file>.idl.d.ts` beside each imported `.idl` (only when its content changes). Default true. */
  dts?: boolean;
  /**
   * Write the declaration map `<file>.idl.d.ts.map` beside each `.idl.d.ts` (only when its content
   * changes), so that "Go to Definition" on a generated name lands on the IDL line that declares
   * it. Default true; `false` writes the `.d.ts` alone.
   */
  declarationMap?: boolean;
  /** `openapi.json` next to the bundle; `false` turns it off. */
  openapi?: OpenApiOptions | false;
  /** `openrpc.json` next to the bundle (docs/openrpc.md); `false` turns it off. */
  openrpc?: OpenRpcOptions | false;
  /** Vite dev server and `vite preview`: host this RPC server. Default: none. */
  server?: DevServerOptions;
  /** Path of the RPC endpoint in the Vite dev and preview servers. Default `/rpc`. */
  rpcPath?: string;
  /**
   * The REST binding's HTTP status of declared errors, by IDL error name (`{ Unauthorized: 401 }`):
   * `openapi.json` lists them under those statuses, and the dev and preview servers answer with
   * them. Give your own server the same map (`createRpcServer`'s `httpStatus`). Default none.
   */
  httpStatus?: Readonly<Record<string, number>>;
  /**
   * Send handler exception texts to clients from the Vite dev server. Default true (it is a dev
   * server); `vite preview` always uses false, like production.
   */
  exposeErrors?: boolean;
  /**
   * The largest `.idl` file the plugin reads, in bytes; a larger one fails the build (or the dev
   * server request) with a clear error. Default 1 MiB (1048576).
   */
  maxIdlBytes?: number;
  /**
   * Keep compiled `.idl` modules on disk for the next build (keyed by the content of every file a
   * module was compiled from and this package's version). Default true; the environment variable
   * `IDLRPC_CACHE=0` turns it off too. Compiled modules are always kept in memory for the process.
   */
  cache?: boolean;
  /**
   * The folder of the disk cache, relative to the project root (Vite's `root`, else the current
   * folder). Default `node_modules/.cache/unplugin-idl-rpc` of the nearest folder with a package.json.
   */
  cacheDir?: string;
  /** Compare every `.idl` with a baseline and report breaking changes as warnings (or errors). Default: off. */
  breaking?: BreakingOptions | false;
  /**
   * The API reference page with a live console (docs/docs-page.md): on in the dev server at
   * `/__idl/docs`, opt-in for `vite preview` (`{ preview: true }`); `false` turns it off.
   */
  docsPage?: boolean | DocsPagePluginOptions;
  /**
   * Mock mode (docs/mock.md): the Vite dev and preview servers answer every method of these
   * interfaces of `server.idl` (`true`: all of them) with mock values, with or without
   * `server.handlers` (mocked interfaces win). Default: off.
   */
  mock?: boolean | readonly string[];
  /** The seed of mock mode: the same seed gives the same answers to the same calls. Default `'idlrpc'`. */
  mockSeed?: string | number;
}

export interface ResolvedOptions {
  dts: boolean;
  declarationMap: boolean;
  openapi: ResolvedOpenApiOptions | false;
  openrpc: ResolvedOpenRpcOptions | false;
  server?: ResolvedDevServerOptions;
  rpcPath: string;
  httpStatus?: Readonly<Record<string, number>>;
  exposeErrors: boolean;
  maxIdlBytes: number;
  cache: boolean;
  cacheDir?: string;
  breaking?: ResolvedBreakingOptions;
  docsPage: ResolvedDocsPageOptions | false;
  /** Mock mode; undefined: off. */
  mock?: ResolvedMockOptions;
}

/** Fills in the defaults and checks the values a user can get wrong. */
export function resolveOptions(options: IdlRpcPluginOptions = {}): ResolvedOptions {
  const openapi: ResolvedOpenApiOptions | false =
    options.openapi === false
      ? false
      : {
          fileName: options.openapi?.fileName ?? 'openapi.json',
          version: options.openapi?.version ?? '3.1',
          serverUrl: options.openapi?.serverUrl,
          info: { ...options.openapi?.info },
          httpStatus: options.httpStatus,
        };
  if (openapi && openapi.version !== '3.1' && openapi.version !== '3.0') {
    throw new Error(`unplugin-idl-rpc: openapi.version must be '3.1' or '3.0', got ${JSON.stringify(openapi.version)}`);
  }
  const openrpc = resolveOpenRpcOptions(options.openrpc, options.openapi);
  const rpcPath = options.rpcPath ?? '/rpc';
  if (!rpcPath.startsWith('/')) {
    throw new Error(`unplugin-idl-rpc: rpcPath must start with '/', got ${JSON.stringify(rpcPath)}`);
  }
  const maxIdlBytes = options.maxIdlBytes ?? DEFAULT_MAX_IDL_BYTES;
  if (!Number.isSafeInteger(maxIdlBytes) || maxIdlBytes < 1) {
    throw new Error(`unplugin-idl-rpc: maxIdlBytes must be a positive whole number of bytes, got ${JSON.stringify(maxIdlBytes)}`);
  }
  if (options.cacheDir !== undefined && (typeof options.cacheDir !== 'string' || options.cacheDir === '')) {
    throw new Error(`unplugin-idl-rpc: cacheDir must be a non-empty path, got ${JSON.stringify(options.cacheDir)}`);
  }
  const resolvedRpcPath = rpcPath.length > 1 ? rpcPath.replace(/\/+$/, '') : rpcPath;
  let server: ResolvedDevServerOptions | undefined;
  const mock = resolveMockOptions(options.mock, options.mockSeed);
  if (mock && !options.server) throw new Error('unplugin-idl-rpc: mock needs `server.idl`, the .idl whose interfaces are mocked');
  if (options.server) {
    const { idl, handlers } = options.server;
    if (typeof idl !== 'string' || (typeof handlers !== 'string' && !(mock && handlers === undefined))) {
      throw new Error(
        'unplugin-idl-rpc: server needs both `idl` and `handlers` (paths relative to the Vite root); `handlers` may be left out with `mock`',
      );
    }
    server = {
      idl,
      ...(handlers === undefined ? {} : { handlers }),
      outDir: options.server.outDir ?? path.join('node_modules', '.idl-rpc', 'server'),
    };
    if (options.server.mcp !== undefined) server.mcp = resolveMcpOptions(options.server.mcp, resolvedRpcPath);
    // Checked against the IDL when the server is created (a rule naming no @readonly method fails it then).
    if (options.server.cache !== undefined) server.cache = options.server.cache;
  }
  const breaking = options.breaking ? resolveBreakingOptions(options.breaking) : undefined;
  // With `server`, the binding is served at rpcPath by the dev server, `vite preview` and the server
  // build alike, so every document of such a build says so.
  if (openapi && openapi.serverUrl === undefined && server) openapi.serverUrl = resolvedRpcPath;
  return {
    dts: options.dts ?? true,
    declarationMap: options.declarationMap ?? true,
    openapi,
    openrpc,
    server,
    rpcPath: resolvedRpcPath,
    httpStatus: options.httpStatus,
    exposeErrors: options.exposeErrors ?? true,
    maxIdlBytes,
    cache: options.cache ?? true,
    cacheDir: options.cacheDir,
    ...(breaking ? { breaking } : {}),
    docsPage: resolveDocsPageOptions(options.docsPage),
    ...(mock ? { mock } : {}),
  };
}

function resolveBreakingOptions(options: BreakingOptions): ResolvedBreakingOptions {
  if (typeof options.against !== 'string' || options.against === '') {
    throw new Error(
      `unplugin-idl-rpc: breaking.against must name a baseline (git:<rev>, an .idl or an IDL JSON file), got ${JSON.stringify(options.against)}`,
    );
  }
  const level = options.level ?? 'wire';
  if (!isCheckLevel(level)) {
    throw new Error(`unplugin-idl-rpc: breaking.level must be one of ${CHECK_LEVELS.join(', ')}, got ${JSON.stringify(level)}`);
  }
  if (options.idl !== undefined && (typeof options.idl !== 'string' || options.idl === '')) {
    throw new Error(`unplugin-idl-rpc: breaking.idl must be a non-empty path, got ${JSON.stringify(options.idl)}`);
  }
  return { against: options.against, ...(options.idl !== undefined ? { idl: options.idl } : {}), level, fail: options.fail === true };
}

/** `openrpc` with its defaults; a relative `serverUrl` is refused (OpenRPC requires an absolute URI). */
function resolveOpenRpcOptions(
  options: OpenRpcOptions | false | undefined,
  openapi: OpenApiOptions | false | undefined,
): ResolvedOpenRpcOptions | false {
  if (options === false) return false;
  const serverUrl = options?.serverUrl;
  if (serverUrl !== undefined && !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(serverUrl)) {
    throw new Error(`unplugin-idl-rpc: openrpc.serverUrl must be an absolute URI (OpenRPC requires one), got ${JSON.stringify(serverUrl)}`);
  }
  const fileName = options?.fileName ?? 'openrpc.json';
  const info = { ...(options?.info ?? (openapi ? openapi.info : undefined)) };
  return serverUrl === undefined ? { fileName, info } : { fileName, serverUrl, info };
}
