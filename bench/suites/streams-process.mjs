/**
 * One streaming server of the streams suite, in its own process so the client (in the parent) never
 * shares its event loop. Usage: node streams-process.mjs <kind>, where kind is `bare`, `orpc` or
 * `ours`. Each serves POST requests whose JSON gives `{ count, intervalMs }` (ours: the JSON-RPC
 * call `StreamBench.orders(count, intervalMs)`) and streams `orderUpdates(count, intervalMs)` as
 * server-sent events. Listens on 127.0.0.1 on a free port and prints `{"port":N,"path":"..."}` on one
 * line when ready; answers `cpu-usage` messages with `process.cpuUsage()`; runs until killed.
 */
import http from 'node:http';
import { orderUpdates } from '../lib/stream-items.mjs';
import { readBody } from '../lib/read-body.mjs';

const kind = process.argv[2];

/** Resolves when `res` can take more (or is gone, so a loop waiting on it never hangs). */
function drained(res) {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/**
 * The reference: `node:http`, one SSE event per item (`id:` and `data:` with `JSON.stringify` of
 * the item), waiting for the socket to drain when `write` says so. No envelope, no validation, no
 * error handling, no heartbeat: what is left is HTTP, the item source and JSON.
 */
function bareServer() {
  return http.createServer(async (req, res) => {
    const { count, intervalMs } = JSON.parse(await readBody(req));
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    let closed = false;
    res.on('close', () => (closed = true));
    for await (const item of orderUpdates(count, intervalMs)) {
      if (closed) break;
      if (!res.write(`id: ${item.sequence}\ndata: ${JSON.stringify(item)}\n\n`)) await drained(res);
    }
    res.end();
  });
}

/** oRPC's event iterator: a procedure returning the async iterator, behind its node:http RPCHandler. */
async function orpcServer() {
  const { os } = await import('@orpc/server');
  const { RPCHandler } = await import('@orpc/server/node');
  const router = { orders: os.handler(({ input }) => orderUpdates(input.count, input.intervalMs)) };
  const handler = new RPCHandler(router);
  return http.createServer(async (req, res) => {
    const { matched } = await handler.handle(req, res, { prefix: '/rpc' });
    if (!matched) res.writeHead(404).end();
  });
}

/**
 * Ours: the module generated from `streamBenchIdl`, whose `createStreambenchServer` builds
 * `createRpcServer` (validation on both ways, as the server suite runs it), behind `listen`.
 */
async function oursServer() {
  const { importGeneratedIdl, importBuilt } = await import('../lib/ours.mjs');
  const { streamBenchIdl } = await import('../lib/stream-items.mjs');
  const module = await importGeneratedIdl('streambench-server', streamBenchIdl);
  const { listen } = await importBuilt('runtime/index.js');
  const server = module.createStreambenchServer(
    { StreamBench: { orders: (count, intervalMs) => orderUpdates(count, intervalMs) } },
    { validateRequests: true, validateResponses: true },
  );
  return listen(server, { port: 0, host: '127.0.0.1' });
}

const paths = { bare: '/', orpc: '/rpc/orders', ours: '/' };
const factories = { bare: bareServer, orpc: orpcServer, ours: oursServer };
if (!factories[kind]) {
  console.error(`unknown server kind "${kind}"; expected one of ${Object.keys(factories).join(', ')}`);
  process.exit(2);
}
const server = await factories[kind]();
const announce = () => console.log(JSON.stringify({ port: server.address().port, path: paths[kind] }));
if (server.listening) announce();
else server.listen(0, '127.0.0.1', announce);
process.on('message', (message) => {
  if (message === 'cpu-usage') process.send(process.cpuUsage());
});
process.on('SIGTERM', () => process.exit(0));
process.on('disconnect', () => process.exit(0));
