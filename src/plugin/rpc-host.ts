/**
 * Hosts the RPC server of a server entry module in a connect stack (Vite's dev and preview
 * servers): the JSON-RPC endpoint at `rpcPath`, and the OpenAPI binding below it
 * (`POST <rpcPath>/<Interface>/<method>`), through the runtime's own middleware.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CorsOptions } from '../../runtime/cors.js';
import { pickHandlers, type ServerEntryModule } from './server-entry.js';

type Next = (error?: unknown) => void;
type Middleware = (req: IncomingMessage, res: ServerResponse, next: Next) => void;

/** Whether a request URL is the endpoint or below it. */
export function isRpcRequest(url: string | undefined, rpcPath: string): boolean {
  const pathname = (url ?? '/').split('?')[0];
  return pathname === rpcPath || pathname.startsWith(rpcPath === '/' ? '/' : `${rpcPath}/`);
}

/**
 * Builds the middleware for one loaded entry. A new entry object (after an edit) gets a new RPC
 * server; the same object reuses the one built before.
 */
export function rpcHostFor(
  rpcPath: string,
  exposeErrors: boolean,
  cors: CorsOptions | undefined,
  httpStatus: Readonly<Record<string, number>> | undefined,
): (entry: ServerEntryModule) => Middleware {
  let lastEntry: ServerEntryModule | undefined;
  let lastMiddleware: Middleware | undefined;
  return (entry) => {
    if (entry === lastEntry && lastMiddleware) return lastMiddleware;
    const interfaceNames = (entry.idlJson.interfaces ?? []).map((i) => i.name);
    const server = entry.createServer(pickHandlers(entry.handlers, interfaceNames), { exposeErrors, cors, httpStatus });
    lastEntry = entry;
    lastMiddleware = entry.createMiddleware(server, { path: rpcPath }) as Middleware;
    return lastMiddleware;
  };
}

/** Answers a request that failed before the RPC server could (a broken `.idl` or handler module). */
export function sendLoadFailure(res: ServerResponse, error: unknown, expose: boolean): void {
  const text = expose && error instanceof Error ? error.message : 'The RPC server could not be loaded';
  res.statusCode = 500;
  res.setHeader('Content-Type', 'application/json');
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: `Internal error: ${text}` }, id: null }));
}
