/**
 * Hosts the RPC server of a server entry module in a connect stack (Vite's dev and preview
 * servers): the JSON-RPC endpoint at `rpcPath`, and the OpenAPI binding below it
 * (`POST <rpcPath>/<Interface>/<method>`), through the runtime's own middleware; it answers
 * `rpc.discover` with the entry's OpenRPC document. With `server.mcp`, the MCP binding at its path
 * too, which wins over a JSON-RPC path it equals (as on `listen`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { stripVTControlCharacters } from 'node:util';
import type { CacheOptions } from '../../runtime/cache-rules.js';
import type { CorsOptions } from '../../runtime/cors.js';
import type { RpcServerOptions } from '../../runtime/server.js';
import type { ResolvedMcpOptions } from './mcp-options.js';
import { corsWithMockHeader } from './mock-options.js';
import { missingHandlersProblem, pickHandlers, type ServerEntryModule } from './server-entry.js';

type Next = (error?: unknown) => void;
export type Middleware = (req: IncomingMessage, res: ServerResponse, next: Next) => void;

/** Whether a request URL is the endpoint or below it. */
export function isRpcRequest(url: string | undefined, rpcPath: string): boolean {
  const pathname = pathnameOf(url);
  return pathname === rpcPath || pathname.startsWith(rpcPath === '/' ? '/' : `${rpcPath}/`);
}

/** Whether a request URL is one the hosted server answers: the endpoint, below it, or the MCP path. */
export function isHostedRequest(url: string | undefined, host: Pick<RpcHostOptions, 'rpcPath' | 'mcp'>): boolean {
  return isMcpRequest(url, host.mcp) || isRpcRequest(url, host.rpcPath);
}

function isMcpRequest(url: string | undefined, mcp: ResolvedMcpOptions | undefined): boolean {
  return mcp !== undefined && pathnameOf(url) === mcp.path;
}

function pathnameOf(url: string | undefined): string {
  return (url ?? '/').split('?')[0];
}

/** How the dev or preview server hosts its entries. */
export interface RpcHostOptions {
  rpcPath: string;
  exposeErrors: boolean;
  /** The runtime's `cors` option made of Vite's setting; undefined: off. */
  cors: CorsOptions | undefined;
  httpStatus: Readonly<Record<string, number>> | undefined;
  /** The plugin's `server.mcp`, checked; undefined: no MCP binding. */
  mcp: ResolvedMcpOptions | undefined;
  /** The plugin's `server.cache` (reads over GET); undefined: the runtime's default. */
  cache?: CacheOptions;
}

/** One loaded entry, hosted: what answers its requests, and what is wrong with it. */
export interface HostedEntry {
  /** Answers the requests: the RPC server, or for a `failure` an error answer to each. */
  middleware: Middleware;
  /** True the first time this entry is hosted: its problems are reported then, not on every request. */
  fresh: boolean;
  /**
   * Why no RPC server could be made from the entry (handlers that do not fit the IDL, such as a
   * method added to the `.idl` before its handler): every request answers -32603 until an edit.
   */
  failure?: unknown;
  /** What leaves the server up but answering nothing (no export named after an interface). */
  problem?: string;
  /**
   * Why the MCP binding could not be made (an `expose` name the IDL does not have): its path answers
   * -32603 while JSON-RPC goes on.
   */
  mcpFailure?: unknown;
}

/**
 * Hosts each loaded entry. A new entry object (after an edit) gets a new RPC server; the same
 * object reuses the one built before. Never throws: handlers that do not fit the IDL make a
 * `failure`, so that one bad edit cannot end the server process.
 */
export function rpcHostFor(options: RpcHostOptions): (entry: ServerEntryModule) => HostedEntry {
  let last: { entry: ServerEntryModule; hosted: Omit<HostedEntry, 'fresh'> } | undefined;
  return (entry) => {
    if (last?.entry === entry) return { ...last.hosted, fresh: false };
    const hosted = hostEntry(entry, options);
    // A module met while an edit's import of it is still under way has exports not set yet: it is
    // hosted again on the next request, not kept failing until the next edit.
    if (isLoaded(entry)) last = { entry, hosted };
    return { ...hosted, fresh: true };
  };
}

/** Whether every export of the entry module is set (a module still being evaluated has them undefined). */
function isLoaded(entry: ServerEntryModule): boolean {
  return entry.idlJson !== undefined && typeof entry.createServer === 'function' && typeof entry.createMiddleware === 'function';
}

function hostEntry(entry: ServerEntryModule, options: RpcHostOptions): Omit<HostedEntry, 'fresh'> {
  const { exposeErrors, cors, httpStatus, cache } = options;
  try {
    if (!isLoaded(entry)) throw new Error('the server module is still loading after an edit; call again');
    const interfaceNames = (entry.idlJson.interfaces ?? []).map((i) => i.name);
    // Mock mode: the mocked interfaces win over the handler module's, and requests may name an error to get.
    const mocked = entry.mockHandlers;
    const handlers = { ...pickHandlers(entry.handlers, interfaceNames), ...mocked };
    const rpcCors = mocked === undefined ? cors : corsWithMockHeader(cors);
    const server = entry.createServer(handlers, { exposeErrors, cors: rpcCors, httpStatus, cache, openRpcDocument: entry.openRpcDocument });
    const rpc = entry.createMiddleware(server, { path: options.rpcPath }) as Middleware;
    const problem = mocked === undefined ? missingHandlersProblem(entry.handlers, interfaceNames) : undefined;
    if (options.mcp === undefined) return { middleware: rpc, problem };
    const mcp = hostMcp(entry, handlers, options, options.mcp);
    const middleware: Middleware = (req, res, next) =>
      isMcpRequest(req.url, options.mcp) ? mcp.listener(req, res, next) : rpc(req, res, next);
    return { middleware, problem, mcpFailure: mcp.failure };
  } catch (failure) {
    return { middleware: (_req, res) => sendLoadFailure(res, failure, exposeErrors), failure };
  }
}

/**
 * The MCP binding of an entry, on a server of its own: mounted on the JSON-RPC server, it would
 * answer at its path under `rpcPath` too (`/rpc/mcp`), since the runtime's middleware gives the
 * server paths relative to its base. Both servers share the handler objects, so their state.
 */
function hostMcp(
  entry: ServerEntryModule,
  handlers: Record<string, object>,
  options: RpcHostOptions,
  mcp: ResolvedMcpOptions,
): { listener: Middleware; failure?: unknown } {
  try {
    if (entry.mcpBinding === undefined || entry.createNodeListener === undefined || entry.mcpResources === undefined) {
      throw new Error('the server build has no MCP binding (it was built without `server.mcp`); run `vite build` again');
    }
    const resources = Object.fromEntries(Object.entries(entry.mcpResources).filter(([, value]) => value !== undefined));
    const binding = entry.mcpBinding({ ...mcp, resources });
    const serverOptions: Omit<RpcServerOptions, 'idl' | 'handlers' | 'validators'> = {
      exposeErrors: options.exposeErrors,
      cors: options.cors,
      httpStatus: options.httpStatus,
      mcp: binding,
    };
    const listener = entry.createNodeListener(entry.createServer(handlers, serverOptions));
    return { listener: (req, res) => listener(req, res) };
  } catch (failure) {
    return { listener: (_req, res) => sendLoadFailure(res, failure, options.exposeErrors), failure };
  }
}

/**
 * The text of an error for a client or a page: its message without terminal colour codes (Vite's
 * transform errors carry them, `\u001b[31m[PARSE_ERROR]`), which only a terminal can show.
 */
export function plainErrorText(error: unknown): string {
  let text: string;
  try {
    text = String(error instanceof Error ? error.message : error);
  } catch {
    text = 'a thrown value without a text form';
  }
  return stripVTControlCharacters(text);
}

/** Answers a request that failed before the RPC server could (a broken `.idl` or handler module). */
export function sendLoadFailure(res: ServerResponse, error: unknown, expose: boolean): void {
  if (res.headersSent || res.destroyed) return;
  const text = expose ? plainErrorText(error) : 'The RPC server could not be loaded';
  res.statusCode = 500;
  res.setHeader('Content-Type', 'application/json');
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: `Internal error: ${text}` }, id: null }));
}
