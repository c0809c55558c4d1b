/**
 * One server of the server suite, run in its own process so the load generator (in the
 * parent) never shares its event loop. Usage: node server-process.mjs <kind>, where kind is
 * `ours`, `bare`, `bare-handlers`, `jayson`, `json-rpc-2.0`, `orpc` or `trpc` (the last two speak
 * their own protocols: bench/lib/orpc-checkout.mjs, bench/lib/trpc-checkout.mjs). Listens on
 * 127.0.0.1 on a free port and prints `{"port":N,"handlers":"..."}` on one line when ready; runs
 * until killed.
 */
import http from 'node:http';
import { bareHandlersAnswer, createJaysonServer, createJsonRpc2Server } from '../lib/entries.mjs';
import { loadCheckoutHandlers } from '../lib/handlers.mjs';
import { createOurCheckoutServer } from '../lib/ours.mjs';
import { readBody } from '../lib/read-body.mjs';

const kind = process.argv[2];

function sendJson(res, text) {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/**
 * The ceiling: parses the JSON body like any server must, then answers a fixed response
 * (precomputed from the same handlers), so only HTTP and JSON.parse cost remain.
 */
async function bareServer(handlers) {
  const answer = bareHandlersAnswer(handlers);
  const fixed = new Map();
  const { serverCalls } = await import('../lib/checkout.mjs');
  for (const body of Object.values(serverCalls)) {
    const message = JSON.parse(body);
    fixed.set(Array.isArray(message) ? 'batch' : message.method, JSON.stringify(await answer(message)));
  }
  return http.createServer(async (req, res) => {
    const message = JSON.parse(await readBody(req));
    sendJson(res, fixed.get(Array.isArray(message) ? 'batch' : message.method));
  });
}

/**
 * The ceiling with the business logic: parses the body, calls the handlers directly and answers
 * their results, with no protocol checks, validation or error handling. What separates a server
 * from this is the cost of its RPC layer; what separates this from `bare` is the handlers' own.
 */
async function bareHandlersServer(handlers) {
  const answer = bareHandlersAnswer(handlers);
  return http.createServer(async (req, res) => {
    const message = JSON.parse(await readBody(req));
    sendJson(res, JSON.stringify(await answer(message)));
  });
}

/** jayson's own HTTP server. */
async function jaysonServer(handlers) {
  return (await createJaysonServer(handlers)).http();
}

/** json-rpc-2.0's transport-free server behind node:http, as its README shows. */
async function jsonRpc2Server(handlers) {
  const server = await createJsonRpc2Server(handlers);
  return http.createServer(async (req, res) => {
    let message;
    try {
      message = JSON.parse(await readBody(req));
    } catch {
      res.writeHead(400).end();
      return;
    }
    const response = await server.receive(message);
    if (response) sendJson(res, JSON.stringify(response));
    else res.writeHead(204).end();
  });
}

const factories = {
  bare: bareServer,
  'bare-handlers': bareHandlersServer,
  jayson: jaysonServer,
  'json-rpc-2.0': jsonRpc2Server,
  // oRPC's RPCHandler for node:http with the batch plugin; tRPC's standalone adapter (zod validation both ways).
  // Imported when used: each process loads only the library it serves (zod too).
  orpc: async (handlers) => (await import('../lib/orpc-checkout.mjs')).createOrpcServer(handlers),
  trpc: async (handlers) => (await import('../lib/trpc-checkout.mjs')).createTrpcServer(handlers),
  // Our runtime serving the generated checkout module, request and response validation on.
  ours: createOurCheckoutServer,
};
if (!factories[kind]) {
  console.error(`unknown server kind "${kind}"; expected one of ${Object.keys(factories).join(', ')}`);
  process.exit(2);
}
const { handlers, source } = await loadCheckoutHandlers(kind);
const server = await factories[kind](handlers);
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  console.log(JSON.stringify({ port: server.address().port, handlers: source }));
});
// The parent asks for our CPU time around each load run, to report CPU time per request.
process.on('message', (message) => {
  if (message === 'cpu-usage') process.send(process.cpuUsage());
});
// The parent ends us with SIGTERM; also stop if the parent disappears.
process.on('SIGTERM', () => process.exit(0));
process.on('disconnect', () => process.exit(0));
