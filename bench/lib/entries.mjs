/**
 * Every server of the benchmarks, built on the same handlers: the peers' own server objects (which
 * the HTTP suite puts behind `node:http`) and each one's "request text in, response text out"
 * entry (what the in-process suite calls). One place wires the handlers into each library, so both
 * suites measure the same servers.
 */
import { createOurCheckoutCore } from './ours.mjs';

/** Calls a handler method named "Interface.method" with positional params. */
function dispatch(handlers, method, params) {
  const dot = method.lastIndexOf('.');
  return handlers[method.slice(0, dot)][method.slice(dot + 1)](...params);
}

/**
 * The bare-handlers reference: the handlers called directly on the parsed message, their results
 * answered, with no protocol checks, validation or error handling. Gives the response object(s).
 */
export function bareHandlersAnswer(handlers) {
  const answer = async (message) => ({ jsonrpc: '2.0', result: await dispatch(handlers, message.method, message.params), id: message.id });
  return async (message) => (Array.isArray(message) ? Promise.all(message.map(answer)) : answer(message));
}

/** jayson's promise server; methods spread the positional params into the shared handlers. */
export async function createJaysonServer(handlers) {
  const { default: jayson } = await import('jayson/promise/index.js');
  const methods = {};
  for (const [iface, object] of Object.entries(handlers)) {
    for (const name of Object.keys(object)) {
      methods[`${iface}.${name}`] = async (params) => object[name](...params);
    }
  }
  return new jayson.Server(methods);
}

/** json-rpc-2.0's transport-free server, as its README shows. */
export async function createJsonRpc2Server(handlers) {
  const { JSONRPCServer } = await import('json-rpc-2.0');
  const server = new JSONRPCServer();
  for (const [iface, object] of Object.entries(handlers)) {
    for (const name of Object.keys(object)) {
      server.addMethod(`${iface}.${name}`, (params) => object[name](...params));
    }
  }
  return server;
}

/**
 * Each server's own "request text in, response text out" entry, by kind: `(text) => Promise<string>`
 * ('' when nothing is to be sent). Peers that give response objects get them `JSON.stringify`d, as
 * their HTTP wrappers do. oRPC's and tRPC's take their own requests instead of the JSON-RPC text
 * (the list of `{ method, path, headers, body }` that bench/lib/orpc-checkout.mjs and
 * trpc-checkout.mjs give for a call).
 */
export const textEntries = {
  /**
   * `handleHttp`, what our Node and fetch adapters call with the body they read: the verb, media
   * type and size checks and the REST route lookup run too (a few tens of nanoseconds), so the
   * whole core is measured.
   */
  async ours(handlers) {
    const core = await createOurCheckoutCore(handlers);
    return async (text) => (await core.handleHttp({ method: 'POST', path: '/', contentType: 'application/json', body: text })).body;
  },
  /** The same entry on a server with one middleware that does nothing but call `next()`: its cost. */
  async 'ours-noop-middleware'(handlers) {
    const core = await createOurCheckoutCore(handlers, { middleware: [(_call, next) => next()] });
    return async (text) => (await core.handleHttp({ method: 'POST', path: '/', contentType: 'application/json', body: text })).body;
  },
  async 'bare-handlers'(handlers) {
    const answer = bareHandlersAnswer(handlers);
    return async (text) => JSON.stringify(await answer(JSON.parse(text)));
  },
  /** `Server.call` with the request text (jayson parses it); its callback gives an error response first. */
  async jayson(handlers) {
    const server = await createJaysonServer(handlers);
    return (text) =>
      new Promise((resolve) => {
        server.call(text, (error, success) => {
          const response = error ?? success;
          resolve(response === undefined ? '' : JSON.stringify(response));
        });
      });
  },
  /** `JSONRPCServer.receiveJSON`. */
  async 'json-rpc-2.0'(handlers) {
    const server = await createJsonRpc2Server(handlers);
    return async (text) => {
      const response = await server.receiveJSON(text);
      return response === null ? '' : JSON.stringify(response);
    };
  },
  // Imported when used: a server process of the server suite loads only the library it serves (with
  // zod in every process, every server's requests were dearer: the bare reference's batch 54 -> 46 us).
  orpc: async (handlers) => (await import('./orpc-checkout.mjs')).orpcTextEntry(handlers),
  trpc: async (handlers) => (await import('./trpc-checkout.mjs')).trpcTextEntry(handlers),
};
