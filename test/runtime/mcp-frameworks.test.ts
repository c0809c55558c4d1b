/**
 * The MCP binding hosted in the frameworks the runtime's adapters serve (docs/mcp.md, "Mounting
 * it"): Express 5 (createMiddleware, after express.json()), Fastify 5 (fastifyRpc) and Hono on
 * @hono/node-server (honoRpc), each with the binding under the adapter's path. The SDK's client
 * lists the tools and calls one through each.
 */
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { fastifyRpc } from '../../runtime/adapters/fastify.js';
import { honoRpc } from '../../runtime/adapters/hono.js';
import { createMiddleware, createRpcServer, type RpcServer } from '../../runtime/index.js';
import { closeAfter } from './helpers.js';
import { mcpBinding } from '../../runtime/mcp/index.js';
import { compileIdl } from '../../src/idl/index.js';
import { toIdlJson } from '../../src/idl/json.js';

const idl = toIdlJson(compileIdl(readFileSync(new URL('fixtures/mcp-shop.idl', import.meta.url), 'utf8'), 'mcp-shop.idl'));
const handlers = {
  CatalogService: { listProducts: () => [], getProduct: () => null, sizeOf: () => 'small', countUpTo: () => 0 },
  OrderService: { createOrder: () => 'o1', async *watchOrder() {} },
  AdminService: { resetCatalog: () => true },
};
const shopServer = (): RpcServer => createRpcServer({ idl, handlers, mcp: mcpBinding({ expose: ['CatalogService'] }) });

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Lists the tools at `address` and calls one, with the SDK's client. */
async function checkMcp(address: string): Promise<void> {
  const client = new Client({ name: 'frameworks-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(address)));
  cleanups.push(() => client.close());
  expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('CatalogService_sizeOf');
  const size = await client.callTool({ name: 'CatalogService_sizeOf', arguments: { id: 'mug' } });
  expect(size.structuredContent).toStrictEqual({ result: 'small' });
}

describe('the MCP binding hosted', () => {
  it('in Express 5 (createMiddleware, after express.json()), under the middleware path', async () => {
    const app = express();
    app.use(express.json());
    app.use(createMiddleware(shopServer(), { path: '/rpc' }));
    const server = await new Promise<Server>((resolve) => {
      const started = app.listen(0, '127.0.0.1', () => resolve(started));
    });
    await checkMcp(`${closeAfter(cleanups, server)}/rpc/mcp`);
  });

  it('in Express 5 (createMiddleware): GET and DELETE of the MCP path get 405 with Allow: POST, other GETs go on to the app', async () => {
    const app = express();
    app.use(express.json());
    app.use(createMiddleware(shopServer(), { path: '/rpc' }));
    app.use((_req, res) => {
      res.status(200).send('the app');
    });
    const server = await new Promise<Server>((resolve) => {
      const started = app.listen(0, '127.0.0.1', () => resolve(started));
    });
    const address = closeAfter(cleanups, server);
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${address}/rpc/mcp`, { method, headers: { accept: 'text/event-stream' } });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow'), method).toBe('POST');
    }
    const page = await fetch(`${address}/rpc/mcp-help`);
    expect(await page.text()).toBe('the app');
  });

  it('in Fastify 5 (fastifyRpc)', async () => {
    const app = Fastify();
    await app.register(fastifyRpc(shopServer(), { path: '/rpc' }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    cleanups.push(() => app.close());
    await checkMcp(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}/rpc/mcp`);
  });

  it('in Hono on @hono/node-server (honoRpc)', async () => {
    const app = new Hono();
    const rpc = honoRpc(shopServer(), { path: '/rpc' });
    app.all('/rpc/*', rpc);
    const server = await new Promise<Server>((resolve) => {
      const started = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started as Server));
    });
    await checkMcp(`${closeAfter(cleanups, server)}/rpc/mcp`);
  });
});
