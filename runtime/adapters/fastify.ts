/**
 * Fastify: a plugin that hosts an RPC server at `path` (JSON-RPC there and one segment below it, the
 * REST binding at `<path>/<Interface>/<method>`). Fastify's body parsing is off on these routes (in
 * this plugin's scope only): the Node adapter reads the body itself, within `maxBodyBytes` and the
 * body budget, and answers 415, 413 and CORS as everywhere else. Nothing is imported from Fastify,
 * so this file costs nothing to those who do not use it. Stream methods stream through it as through
 * the Node adapter (the reply is hijacked: no Fastify hook or compression plugin holds their events).
 *
 *     await app.register(fastifyRpc(server, { path: '/rpc' }));
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createNodeListener } from '../node.js';
import type { RpcServer } from '../server.js';

/** The parts of a Fastify instance the plugin uses. */
interface FastifyLike {
  removeAllContentTypeParsers(): void;
  addContentTypeParser(contentType: string, parser: (request: unknown, payload: unknown, done: (error: null) => void) => void): void;
  all(path: string, handler: (request: { raw: IncomingMessage }, reply: { raw: ServerResponse; hijack(): void }) => void): unknown;
}

export interface FastifyRpcOptions {
  /** Where the binding lives. Default `/rpc`. */
  path?: string;
}

/** A Fastify plugin (`app.register(...)`) serving `server` at `options.path`. */
export function fastifyRpc(server: RpcServer, options: FastifyRpcOptions = {}): (fastify: FastifyLike) => Promise<void> {
  const path = options.path ?? '/rpc';
  const listener = createNodeListener(server, { basePath: path });
  return async (fastify) => {
    // Leave the body unread for the Node adapter, whatever its type (415 is the adapter's answer).
    fastify.removeAllContentTypeParsers();
    fastify.addContentTypeParser('*', (_request, _payload, done) => done(null));
    const handler = (request: { raw: IncomingMessage }, reply: { raw: ServerResponse; hijack(): void }) => {
      reply.hijack();
      listener(request.raw, reply.raw);
    };
    const base = path === '/' ? '' : path.replace(/\/+$/, '');
    fastify.all(base === '' ? '/' : base, handler);
    fastify.all(`${base}/*`, handler);
  };
}
