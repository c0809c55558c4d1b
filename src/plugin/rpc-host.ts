/**
 * Hosts the RPC server of a server entry module in a connect stack (Vite's dev and preview
 * servers): the JSON-RPC endpoint at `rpcPath`, and the OpenAPI binding below it
 * (`POST <rpcPath>/<Interface>/<method>`), through the runtime's own middleware; it answers
 * `rpc.discover` with the entry's OpenRPC document.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { stripVTControlCharacters } from 'node:util';
import type { CorsOptions } from '../../runtime/cors.js';
import { missingHandlersProblem, pickHandlers, type ServerEntryModule } from './server-entry.js';

type Next = (error?: unknown) => void;
export type Middleware = (req: IncomingMessage, res: ServerResponse, next: Next) => void;

/** Whether a request URL is the endpoint or below it. */
export function isRpcRequest(url: string | undefined, rpcPath: string): boolean {
  const pathname = (url ?? '/').split('?')[0];
  return pathname === rpcPath || pathname.startsWith(rpcPath === '/' ? '/' : `${rpcPath}/`);
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
}

/**
 * Hosts each loaded entry. A new entry object (after an edit) gets a new RPC server; the same
 * object reuses the one built before. Never throws: handlers that do not fit the IDL make a
 * `failure`, so that one bad edit cannot end the server process.
 */
export function rpcHostFor(
  rpcPath: string,
  exposeErrors: boolean,
  cors: CorsOptions | undefined,
  httpStatus: Readonly<Record<string, number>> | undefined,
): (entry: ServerEntryModule) => HostedEntry {
  let last: { entry: ServerEntryModule; hosted: Omit<HostedEntry, 'fresh'> } | undefined;
  return (entry) => {
    if (last?.entry === entry) return { ...last.hosted, fresh: false };
    const hosted = hostEntry(entry, rpcPath, exposeErrors, cors, httpStatus);
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

function hostEntry(
  entry: ServerEntryModule,
  rpcPath: string,
  exposeErrors: boolean,
  cors: CorsOptions | undefined,
  httpStatus: Readonly<Record<string, number>> | undefined,
): Omit<HostedEntry, 'fresh'> {
  try {
    if (!isLoaded(entry)) throw new Error('the server module is still loading after an edit; call again');
    const interfaceNames = (entry.idlJson.interfaces ?? []).map((i) => i.name);
    const server = entry.createServer(pickHandlers(entry.handlers, interfaceNames), {
      exposeErrors,
      cors,
      httpStatus,
      openRpcDocument: entry.openRpcDocument,
    });
    const middleware = entry.createMiddleware(server, { path: rpcPath }) as Middleware;
    return { middleware, problem: missingHandlersProblem(entry.handlers, interfaceNames) };
  } catch (failure) {
    return { middleware: (_req, res) => sendLoadFailure(res, failure, exposeErrors), failure };
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
