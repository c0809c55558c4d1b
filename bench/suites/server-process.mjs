/**
 * One JSON-RPC server of the server suite, run in its own process so the load generator (in the
 * parent) never shares its event loop. Usage: node server-process.mjs <kind>, where kind is
 * `ours`, `bare`, `bare-handlers`, `jayson` or `json-rpc-2.0`. Listens on 127.0.0.1 on a free port and prints
 * `{"port":N,"handlers":"..."}` on one line when ready; runs until killed.
 */
import http from 'node:http';
import { loadCheckoutHandlers } from '../lib/handlers.mjs';

const kind = process.argv[2];

/** Reads the whole request body as a string (all servers do it the same way). */
function readBody(req) {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}

function sendJson(res, text) {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Calls a handler method named "Interface.method" with positional params. */
function dispatch(handlers, method, params) {
  const dot = method.lastIndexOf('.');
  return handlers[method.slice(0, dot)][method.slice(dot + 1)](...params);
}

/**
 * The ceiling: parses the JSON body like any server must, then answers a fixed response
 * (precomputed from the same handlers), so only HTTP and JSON.parse cost remain.
 */
async function bareServer(handlers) {
  const answer = async (message) => ({ jsonrpc: '2.0', result: await dispatch(handlers, message.method, message.params), id: message.id });
  const fixed = new Map();
  const { serverCalls } = await import('../lib/checkout.mjs');
  for (const body of Object.values(serverCalls)) {
    const message = JSON.parse(body);
    const key = Array.isArray(message) ? 'batch' : message.method;
    fixed.set(key, JSON.stringify(Array.isArray(message) ? await Promise.all(message.map(answer)) : await answer(message)));
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
  const answer = async (message) => ({ jsonrpc: '2.0', result: await dispatch(handlers, message.method, message.params), id: message.id });
  return http.createServer(async (req, res) => {
    const message = JSON.parse(await readBody(req));
    sendJson(res, JSON.stringify(Array.isArray(message) ? await Promise.all(message.map(answer)) : await answer(message)));
  });
}

/** jayson's own HTTP server; methods spread the positional params into the shared handlers. */
async function jaysonServer(handlers) {
  const { default: jayson } = await import('jayson/promise/index.js');
  const methods = {};
  for (const [iface, object] of Object.entries(handlers)) {
    for (const name of Object.keys(object)) {
      methods[`${iface}.${name}`] = async (params) => object[name](...params);
    }
  }
  return new jayson.Server(methods).http();
}

/** json-rpc-2.0's transport-free server behind node:http, as its README shows. */
async function jsonRpc2Server(handlers) {
  const { JSONRPCServer } = await import('json-rpc-2.0');
  const server = new JSONRPCServer();
  for (const [iface, object] of Object.entries(handlers)) {
    for (const name of Object.keys(object)) {
      server.addMethod(`${iface}.${name}`, (params) => object[name](...params));
    }
  }
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

/** Our runtime serving the generated checkout module, request and response validation on. */
async function ourServer(handlers) {
  const { createOurCheckoutServer } = await import('../lib/ours.mjs');
  return createOurCheckoutServer(handlers);
}

const factories = { bare: bareServer, 'bare-handlers': bareHandlersServer, jayson: jaysonServer, 'json-rpc-2.0': jsonRpc2Server, ours: ourServer };
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
