/**
 * Hono: a handler that hosts an RPC server at `path` through the fetch adapter (the same answers,
 * CORS included, as `createFetchHandler`; stream methods answer a `ReadableStream` read as the client
 * reads). Nothing is imported from Hono.
 *
 *     app.all('/rpc', rpc);
 *     app.all('/rpc/*', rpc);      // with const rpc = honoRpc(server, { path: '/rpc' })
 */
import { createFetchHandler } from '../fetch.js';
import type { RpcServer } from '../server.js';

export interface HonoRpcOptions {
  /** Where the binding lives, as in the routes it is registered on. Default `/rpc`. */
  path?: string;
}

/** A Hono handler `(c) => Promise<Response>` serving `server` at `options.path`. */
export function honoRpc(server: RpcServer, options: HonoRpcOptions = {}): (c: { req: { raw: Request } }) => Promise<Response> {
  const handle = createFetchHandler(server, { basePath: options.path ?? '/rpc' });
  return (c) => handle(c.req.raw);
}
