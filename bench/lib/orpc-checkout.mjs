/**
 * The checkout calls served by oRPC 1.16.1: a router of procedures with the zod schemas of
 * bench/lib/zod-checkout.mjs as input and output (both validated), calling the shared handlers,
 * behind `RPCHandler` of `@orpc/server/node` with `BatchHandlerPlugin`. The requests are the ones
 * oRPC's client (`RPCLink` with `BatchLinkPlugin`, batching every call) sends: one call is a POST
 * of `{"json": input}` to `/rpc/<Interface>/<method>`; several calls made at once are one POST to
 * the first call's path plus `/__batch__`, its body the list of the calls (`{ body, url }`), and
 * the answer is streamed back as server-sent events (status 207, one event per call, in the order
 * they finish: the plugin's default "streaming" mode).
 */
import http from 'node:http';
import { callList, postJson, recordingFetch } from './peer-calls.mjs';
import { checkoutProcedures } from './zod-checkout.mjs';

export const orpcLabel = 'oRPC 1.16.1';
const prefix = '/rpc';
const procedurePath = (call) => `${prefix}/${call.service}/${call.procedure}`;

/** The router's procedures on `handlers`, each validating its input and output with zod. */
async function createRouter(handlers) {
  const { os } = await import('@orpc/server');
  const router = {};
  for (const [service, procedures] of Object.entries(checkoutProcedures)) {
    const methods = handlers[service];
    router[service] = {};
    for (const [name, { input, output }] of Object.entries(procedures)) {
      router[service][name] = input
        ? os
            .input(input)
            .output(output)
            .handler(({ input: value }) => methods[name](value))
        : os.output(output).handler(() => methods[name]());
    }
  }
  return router;
}

/** oRPC's handler for `node:http`, with the batch plugin. */
async function createHandler(handlers) {
  const { RPCHandler } = await import('@orpc/server/node');
  const { BatchHandlerPlugin } = await import('@orpc/server/plugins');
  return new RPCHandler(await createRouter(handlers), { plugins: [new BatchHandlerPlugin()] });
}

/** The handler behind `node:http`, as oRPC's documentation shows it. */
export async function createOrpcServer(handlers) {
  const handler = await createHandler(handlers);
  return http.createServer(async (req, res) => {
    const { matched } = await handler.handle(req, res, { prefix });
    if (!matched) res.writeHead(404).end();
  });
}

/**
 * The HTTP requests of one call of bench/lib/checkout.mjs (`name`) as oRPC's client sends them to a
 * server at `origin` (the batch names each call's absolute URL): always one request.
 */
export function orpcRequests(name, origin) {
  const calls = callList(name);
  const body = (call) => (call.input === undefined ? {} : { json: call.input });
  if (calls.length === 1) return [postJson(procedurePath(calls[0]), JSON.stringify(body(calls[0])))];
  const batch = calls.map((call) => ({ body: body(call), url: `${origin}${procedurePath(call)}` }));
  return [postJson(`${procedurePath(calls[0])}/__batch__`, JSON.stringify(batch), { 'x-orpc-batch': 'streaming' })];
}

/** A body's value, refusing what JSON alone would not give back (oRPC's `meta` of special values). */
function decoded(body) {
  if (body.meta !== undefined && body.meta.length > 0) throw new Error(`oRPC answered with meta: ${JSON.stringify(body)}`);
  return body.json;
}

/** The results of an answer text in call order; throws on an error answer. */
export function orpcResults(text) {
  if (text.startsWith('{')) return [decoded(JSON.parse(text))];
  const events = text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice('data: '.length)));
  events.sort((a, b) => a.index - b.index);
  return events.map((event) => {
    if (event.status !== 200) throw new Error(`oRPC answered a batched call with ${JSON.stringify(event)}`);
    return decoded(event.body);
  });
}

/**
 * oRPC's own "request in, response text out": the standard handler inside its `node:http` adapter
 * (the same object, plugins included) on a request as the adapter builds it from the body it read,
 * and the answer as the adapter writes it (`toNodeHttpBody`: the JSON text, or the event stream).
 */
export async function orpcTextEntry(handlers) {
  const { toNodeHttpBody } = await import('@orpc/standard-server-node');
  const { standardHandler } = await createHandler(handlers);
  const origin = 'http://127.0.0.1';
  return async ([request]) => {
    const { response } = await standardHandler.handle(
      {
        method: request.method,
        url: new URL(request.path, origin),
        headers: request.headers,
        body: () => Promise.resolve(JSON.parse(request.body)),
        signal: undefined,
      },
      { prefix, context: {} },
    );
    const body = toNodeHttpBody(response.body, { ...response.headers });
    if (typeof body === 'string') return body;
    const chunks = [];
    for await (const chunk of body) chunks.push(chunk);
    return Buffer.concat(chunks).toString();
  };
}

/**
 * Makes the call `name` with oRPC's client (`RPCLink` with `BatchLinkPlugin` batching every call)
 * against `url` (the server's origin); gives the values the client returns and the requests it sent.
 */
export async function orpcClientCall(name, origin) {
  const { createORPCClient } = await import('@orpc/client');
  const { RPCLink } = await import('@orpc/client/fetch');
  const { BatchLinkPlugin } = await import('@orpc/client/plugins');
  const sent = [];
  const batchEverything = new BatchLinkPlugin({ groups: [{ condition: () => true, context: {} }] });
  const client = createORPCClient(new RPCLink({ url: `${origin}${prefix}`, fetch: recordingFetch(sent), plugins: [batchEverything] }));
  const results = await Promise.all(callList(name).map((call) => client[call.service][call.procedure](call.input)));
  return { results, sent };
}
