/**
 * The notes server hosted the ways teams run servers, each started for real and called with a
 * generated client (test/runtime/production-checks.ts): `listen`, Express 5, Fastify 5, Hono on
 * @hono/node-server, a Next.js-style route handler and the fetch handler as Workers, Deno and Bun
 * call it (both with web-standard Request and Response, no HTTP). Middleware and CORS behave alike.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { afterEach, beforeAll, describe, it } from 'vitest';
import { fastifyRpc } from '../../runtime/adapters/fastify.js';
import { honoRpc } from '../../runtime/adapters/hono.js';
import { createFetchHandler, createMiddleware, listen, type RpcServer } from '../../runtime/index.js';
import { closeAfter } from './helpers.js';
import { importNotesModule, notesHandlers, type NotesModule, productionOptions } from './notes-service.js';
import { checkProductionServer } from './production-checks.js';

let module: NotesModule;
beforeAll(async () => {
  module = await importNotesModule();
});

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

const notesServer = (): RpcServer => module.createNotesServer(notesHandlers(module), productionOptions(module));
const overHttp = (request: Request) => fetch(request);

describe('hosted', () => {
  it('by listen', async () => {
    const origin = closeAfter(cleanups, await listen(notesServer(), { port: 0, host: '127.0.0.1', basePath: '/rpc' }));
    await checkProductionServer(module, `${origin}/rpc`, overHttp);
  });

  it('in Express 5 (createMiddleware, after express.json())', async () => {
    const app = express();
    app.use(express.json());
    app.use(createMiddleware(notesServer(), { path: '/rpc' }));
    app.get('/', (_request, response) => void response.send('the app'));
    const server = await new Promise<Server>((resolve) => {
      const started = app.listen(0, '127.0.0.1', () => resolve(started));
    });
    await checkProductionServer(module, `${closeAfter(cleanups, server)}/rpc`, overHttp);
  });

  it('in Fastify 5 (fastifyRpc)', async () => {
    const app = Fastify();
    await app.register(fastifyRpc(notesServer(), { path: '/rpc' }));
    app.get('/', async () => 'the app');
    await app.listen({ port: 0, host: '127.0.0.1' });
    cleanups.push(() => app.close());
    const { port } = app.server.address() as AddressInfo;
    await checkProductionServer(module, `http://127.0.0.1:${port}/rpc`, overHttp);
  });

  it('in Hono on @hono/node-server (honoRpc)', async () => {
    const app = new Hono();
    const rpc = honoRpc(notesServer(), { path: '/rpc' });
    app.all('/rpc', rpc);
    app.all('/rpc/*', rpc);
    app.get('/', (c) => c.text('the app'));
    const server = await new Promise<Server>((resolve) => {
      const started = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started as Server));
    });
    await checkProductionServer(module, `${closeAfter(cleanups, server)}/rpc`, overHttp);
  });

  it('as a Next.js-style route handler (app/api/rpc/[[...path]]/route.ts), called with web-standard Requests', async () => {
    // What the route file exports: one handler for every verb the binding answers.
    const handler = createFetchHandler(notesServer(), { basePath: '/api/rpc' });
    const route = { POST: handler, OPTIONS: handler, GET: handler };
    const send = (request: Request) => route[request.method as keyof typeof route](request);
    await checkProductionServer(module, 'https://app.example/api/rpc', send);
  });

  it('as the fetch handler of Cloudflare Workers, Deno and Bun (export default { fetch }), called with web-standard Requests', async () => {
    const worker = { fetch: createFetchHandler(notesServer(), { basePath: '/rpc' }) };
    await checkProductionServer(module, 'https://worker.example/rpc', (request) => worker.fetch(request));
  });
});
