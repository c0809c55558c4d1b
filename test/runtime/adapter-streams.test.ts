/**
 * Every adapter streams a stream method's answer over a real socket: the first item arrives while
 * the handler is still running (nothing buffers the answer), a client that goes away ends the
 * handler (its `finally` runs), and a client that stops reading stops the handler too (the server
 * writes no further than the socket buffers take). `listen`'s server also ends open streams with
 * the reconnect message on shutdown (a client resumes across a restart), and carries 1,000 streams at once.
 */
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { createServer as createViteServer } from 'vite';
import { afterEach, describe, expect, it } from 'vitest';
import { fastifyRpc } from '../../runtime/adapters/fastify.js';
import type { AnswerStream } from '../../runtime/http-answer.js';
import { honoRpc } from '../../runtime/adapters/hono.js';
import { streamMethod } from '../../runtime/client.js';
import { createFetchHandler, createMiddleware, createNodeListener, HttpTransport, listen, type RpcServer } from '../../runtime/index.js';
import { readSse, type SseReader } from './sse-reader.js';
import { gate, streamServer, type Tick, type TickHandler, until } from './stream-server.js';

/** An adapter hosting `server`, started on 127.0.0.1: the endpoint's URL and how to stop it. */
type Host = (server: RpcServer) => Promise<{ url: string; close: () => Promise<unknown> }>;

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

function origin(server: http.Server): string {
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function closeNodeServer(server: http.Server): () => Promise<unknown> {
  return () =>
    new Promise((resolve) => {
      server.close(resolve);
      server.closeAllConnections();
    });
}

function listening(server: http.Server): Promise<http.Server> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const hosts: Record<string, Host> = {
  listen: async (server) => {
    const httpServer = await listen(server, { port: 0, host: '127.0.0.1', basePath: '/rpc' });
    return { url: `${origin(httpServer)}/rpc`, close: closeNodeServer(httpServer) };
  },
  'createNodeListener in http.createServer': async (server) => {
    const httpServer = await listening(http.createServer(createNodeListener(server, { basePath: '/rpc' })));
    return { url: `${origin(httpServer)}/rpc`, close: closeNodeServer(httpServer) };
  },
  'Express 5 (createMiddleware after express.json())': async (server) => {
    const app = express();
    app.use(express.json());
    app.use(createMiddleware(server, { path: '/rpc' }));
    const httpServer = await listening(http.createServer(app));
    return { url: `${origin(httpServer)}/rpc`, close: closeNodeServer(httpServer) };
  },
  'Fastify 5 (fastifyRpc)': async (server) => {
    const app = Fastify();
    await app.register(fastifyRpc(server, { path: '/rpc' }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    return { url: `${origin(app.server)}/rpc`, close: () => (app.server.closeAllConnections(), app.close()) };
  },
  'Hono on @hono/node-server (honoRpc, the fetch handler)': async (server) => {
    const app = new Hono();
    const rpc = honoRpc(server, { path: '/rpc' });
    app.all('/rpc', rpc);
    app.all('/rpc/*', rpc);
    const httpServer = await new Promise<http.Server>((resolve) => {
      const started = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started as http.Server));
    });
    return { url: `${origin(httpServer)}/rpc`, close: closeNodeServer(httpServer) };
  },
  'Vite dev server (createMiddleware in configureServer)': async (server) => {
    const vite = await createViteServer({
      configFile: false,
      root: new URL('./fixtures/', import.meta.url).pathname,
      logLevel: 'silent',
      server: { port: 0, host: '127.0.0.1', strictPort: false, ws: false, watch: null },
      optimizeDeps: { noDiscovery: true, include: [] },
      plugins: [{ name: 'rpc', configureServer: (dev) => void dev.middlewares.use(createMiddleware(server)) }],
    });
    await vite.listen();
    return { url: `${origin(vite.httpServer as http.Server)}/rpc`, close: () => vite.close() };
  },
};

async function host(adapter: Host, server: RpcServer): Promise<string> {
  const hosted = await adapter(server);
  cleanups.push(hosted.close);
  return hosted.url;
}

const call = (count: number, id = 1) => ({ jsonrpc: '2.0', id, method: 'Ticker.ticks', params: [count] });

function open(url: string, count = 0, agent?: http.Agent): SseReader {
  const reader = readSse(url, call(count), { accept: 'text/event-stream' }, agent);
  cleanups.push(async () => reader.destroy());
  return reader;
}

const tick = (n: number, text = ''): Tick => ({ n, text });

/** The item an SSE event carries (docs/protocol.md: an `rpc.stream.item` notification). */
const itemOf = (event: { data?: any } | undefined) => event?.data?.params?.item;

describe.each(Object.entries(hosts))('%s', (_name, adapter) => {
  it('sends the first item while the handler is still running, then the rest and the end', async () => {
    const second = gate();
    let finished = false;
    const url = await host(
      adapter,
      streamServer(async function* (_count, { signal }) {
        yield tick(1);
        await until(second.opened, signal);
        yield tick(2);
        finished = true;
      }),
    );
    const reader = open(url);
    const response = await reader.response;
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/event-stream');
    expect(response.headers['cache-control']).toBe('no-cache, no-transform');
    expect(response.headers['x-accel-buffering']).toBe('no');
    expect(response.headers['content-length']).toBeUndefined();
    expect(response.headers['content-encoding']).toBeUndefined();
    const first = await reader.next();
    expect(first).toMatchObject({ id: '1' });
    expect(itemOf(first)).toEqual(tick(1));
    expect(finished).toBe(false);
    second.open();
    const rest = await reader.rest();
    expect(rest.map(itemOf)).toEqual([tick(2), undefined]);
    expect(rest[1].data).toEqual({ jsonrpc: '2.0', id: 1, result: null });
    expect(finished).toBe(true);
  });

  it('ends the handler (its finally runs) when the client goes away mid-stream', async () => {
    let finallyRan = false;
    const url = await host(
      adapter,
      streamServer(async function* (_count, { signal }) {
        try {
          yield tick(1);
          await until(new Promise(() => undefined), signal);
        } finally {
          finallyRan = true;
        }
      }),
    );
    const reader = open(url);
    expect(itemOf(await reader.next())).toEqual(tick(1));
    expect(finallyRan).toBe(false);
    reader.destroy();
    await expect.poll(() => finallyRan, { timeout: 10_000 }).toBe(true);
  });

  it('cancels the answer stream itself when the client goes away (whether or not the core watches the request)', async () => {
    let cancelled = false;
    const url = await host(adapter, {
      ...streamServer(async function* () {}),
      // A hand-made stream whose second chunk never comes, that learns of the client only through cancel().
      handleHttp: async () => {
        let chunks = 0;
        const stream: AnswerStream = {
          next: () => (chunks++ === 0 ? Promise.resolve('data: {"first":true}\n\n') : new Promise(() => undefined)),
          cancel: () => {
            cancelled = true;
          },
        };
        return { status: 200, headers: { 'content-type': 'text/event-stream' }, body: '', stream };
      },
    });
    const reader = open(url);
    expect(await reader.next()).toEqual({ data: { first: true } });
    reader.destroy();
    await expect.poll(() => cancelled, { timeout: 10_000 }).toBe(true);
  });

  it("is read by the runtime's client, and leaving its loop ends the handler", async () => {
    let finallyRan = false;
    const url = await host(
      adapter,
      streamServer(async function* (_count, { signal }) {
        try {
          for (let n = 1; ; n++) {
            yield tick(n);
            await until(pause(5), signal);
          }
        } finally {
          finallyRan = true;
        }
      }),
    );
    const items: unknown[] = [];
    for await (const item of streamMethod(new HttpTransport(url), 'Ticker.ticks', [0], [])) {
      items.push(item);
      if (items.length === 3) break;
    }
    expect(items).toEqual([tick(1), tick(2), tick(3)]);
    await expect.poll(() => finallyRan, { timeout: 10_000 }).toBe(true);
  });

  it('stops asking the handler for items while the client does not read', async () => {
    const { produced, url } = await hostEndless(adapter);
    const reader = open(url);
    await reader.next();
    reader.pause();
    await expect.poll(settled(produced), { timeout: 20_000, interval: 250 }).toBe(true);
    // Bounded by the socket buffers (a few MB): without backpressure the handler reaches its limit at once.
    expect(produced()).toBeLessThan(ENDLESS_LIMIT);
  });
});

/** Items of 1 KB; a handler that produced this many was never held back by a slow reader. */
const ENDLESS_LIMIT = 50_000;

async function hostEndless(adapter: Host) {
  let count = 0;
  const text = 'x'.repeat(1_000);
  const handler: TickHandler = async function* () {
    while (count < ENDLESS_LIMIT) yield tick(++count, text);
  };
  return { produced: () => count, url: await host(adapter, streamServer(handler)) };
}

/** A poll that is true once `value()` is unchanged since the previous poll. */
function settled(value: () => number): () => boolean {
  let last = -1;
  return () => {
    const now = value();
    const same = now === last;
    last = now;
    return same;
  };
}

describe('the fetch handler, called with a web-standard Request', () => {
  const request = (count: number) =>
    new Request('https://worker.example/rpc', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify(call(count)),
    });

  it('answers a ReadableStream that gives the first item while the handler runs, and cancels the handler when the body is cancelled', async () => {
    let finallyRan = false;
    const handle = createFetchHandler(
      streamServer(async function* (_count, { signal }) {
        try {
          yield tick(1);
          await until(new Promise(() => undefined), signal);
        } finally {
          finallyRan = true;
        }
      }),
      { basePath: '/rpc' },
    );
    const response = await handle(request(0));
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('content-length')).toBeNull();
    const reader = response.body!.getReader();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toContain('"item":{"n":1,"text":""}');
    await reader.cancel();
    await expect.poll(() => finallyRan).toBe(true);
  });

  it('asks for an item only when the body is read', async () => {
    let produced = 0;
    const handle = createFetchHandler(
      streamServer(async function* () {
        while (produced < ENDLESS_LIMIT) yield tick(++produced);
      }),
    );
    const reader = (await handle(request(0))).body!.getReader();
    await reader.read();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(produced).toBe(1);
    await reader.read();
    expect(produced).toBe(2);
    await reader.cancel();
  });
});

describe("listen's server", () => {
  it('ends open streams with the reconnect message on shutdown(), ends their handlers, then frees the port', async () => {
    let ended = 0;
    const rpc = streamServer(async function* (_count, { signal }) {
      try {
        yield tick(1);
        await until(new Promise(() => undefined), signal);
      } finally {
        ended++;
      }
    });
    const httpServer = await listen(rpc, { port: 0, host: '127.0.0.1' });
    const { port } = httpServer.address() as AddressInfo;
    const readers = [open(origin(httpServer)), open(origin(httpServer))];
    for (const reader of readers) expect(itemOf(await reader.next())).toEqual(tick(1));
    expect(rpc.openStreams).toBe(2);

    const shutdown = httpServer.shutdown({ timeoutMs: 10_000 });
    for (const reader of readers) {
      const rest = await reader.rest();
      expect(rest).toEqual([{ retry: '1000', data: { jsonrpc: '2.0', method: 'rpc.stream.reconnect', params: { id: 1 } } }]);
    }
    expect(await shutdown).toEqual({ timedOut: false });
    expect(ended).toBe(2);
    expect(rpc.openStreams).toBe(0);
    expect(await portIsFree(port)).toBe(true);
  });

  it("a client resumes across a restart: shutdown()'s reconnect message, then the server started again on the port goes on from Last-Event-ID", async () => {
    // Counts on from the last id the client saw, as a handler that resumes does.
    const handler: TickHandler = async function* (_count, ctx) {
      let n = Number(ctx.lastEventId ?? 0);
      for (;;) {
        yield tick(++n);
        await until(pause(5), ctx.signal);
      }
    };
    const first = await listen(streamServer(handler), { port: 0, host: '127.0.0.1' });
    const { port } = first.address() as AddressInfo;
    let second: http.Server | undefined;
    const seen: number[] = [];
    try {
      const transport = new HttpTransport(`http://127.0.0.1:${port}`, { reconnect: { attempts: 20, initialDelayMs: 50, maxDelayMs: 200 } });
      for await (const item of streamMethod(transport, 'Ticker.ticks', [0], []) as AsyncIterable<Tick>) {
        seen.push(item.n);
        if (seen.length === 3) {
          expect(await first.shutdown()).toEqual({ timedOut: false });
          second = await listen(streamServer(handler), { port, host: '127.0.0.1' });
        }
        if (seen.length === 8) break;
      }
    } finally {
      if (second) await closeNodeServer(second)();
    }
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('carries 1,000 streams at once, and every one ends cleanly', async () => {
    const STREAMS = 1_000;
    const more = gate();
    let running = 0;
    const rpc = streamServer(async function* (count, { signal }) {
      running++;
      try {
        yield tick(0);
        await until(more.opened, signal);
        for (let n = 1; n <= count; n++) yield tick(n);
      } finally {
        running--;
      }
    });
    const httpServer = await listen(rpc, { port: 0, host: '127.0.0.1' });
    cleanups.push(closeNodeServer(httpServer));
    const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
    cleanups.push(async () => agent.destroy());
    const readers = Array.from({ length: STREAMS }, () => readSse(origin(httpServer), call(3), { accept: 'text/event-stream' }, agent));
    await Promise.all(readers.map((reader) => reader.next()));
    expect(rpc.openStreams).toBe(STREAMS);
    expect(running).toBe(STREAMS);

    more.open();
    const rests = await Promise.all(readers.map((reader) => reader.rest()));
    for (const rest of rests) {
      expect(rest.map(itemOf)).toEqual([tick(1), tick(2), tick(3), undefined]);
      expect(rest[3].data).toEqual({ jsonrpc: '2.0', id: 1, result: null });
    }
    await expect.poll(() => running).toBe(0);
    expect(rpc.openStreams).toBe(0);
  });
});

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Whether nothing listens on `port` any more (a listen there succeeds). */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}
