/**
 * The checkout calls served by tRPC 11.25.2: a router of procedures with the zod schemas of
 * bench/lib/zod-checkout.mjs as input and output (both validated), calling the shared handlers,
 * the reads (listProducts, getProduct) as queries and addToCart as a mutation, served by its
 * standalone adapter (`createHTTPServer` of `@trpc/server/adapters/standalone`). The requests are
 * the ones tRPC's client with `httpBatchLink` sends: every request in the batch form, a single
 * call too: queries as a GET of `/<Interface>.<method>,...?batch=1&input={"0":...}`, mutations as a
 * POST of `/<Interface>.<method>,...?batch=1` with the body `{"0":...}`. The link batches queries
 * and mutations apart, so the 10-call batch (5 getProduct, 5 addToCart) is two requests, which the
 * client sends at once; the answer of each is a JSON array of `{"result":{"data":...}}`.
 */
import { callList, postJson, recordingFetch } from './peer-calls.mjs';
import { checkoutProcedures } from './zod-checkout.mjs';

export const trpcLabel = 'tRPC 11.25.2';
const kindOf = (call) => checkoutProcedures[call.service][call.procedure].kind;

/** The router on `handlers`: one sub-router per interface, each procedure validating its input and output with zod. */
async function createRouter(handlers) {
  const { initTRPC } = await import('@trpc/server');
  const t = initTRPC.create();
  const services = {};
  for (const [service, procedures] of Object.entries(checkoutProcedures)) {
    const methods = handlers[service];
    const routes = {};
    for (const [name, { input, output, kind }] of Object.entries(procedures)) {
      const procedure = input ? t.procedure.input(input).output(output) : t.procedure.output(output);
      const resolve = input ? ({ input: value }) => methods[name](value) : () => methods[name]();
      routes[name] = kind === 'mutation' ? procedure.mutation(resolve) : procedure.query(resolve);
    }
    services[service] = t.router(routes);
  }
  return t.router(services);
}

/** The standalone adapter's server. */
export async function createTrpcServer(handlers) {
  const { createHTTPServer } = await import('@trpc/server/adapters/standalone');
  return createHTTPServer({ router: await createRouter(handlers) });
}

/** The calls of `name` grouped as `httpBatchLink` sends them: queries, then mutations, each group in call order. */
function batches(name) {
  const calls = callList(name);
  return ['query', 'mutation']
    .map((kind) => calls.map((call, index) => ({ ...call, index })).filter((call) => kindOf(call) === kind))
    .filter((group) => group.length > 0);
}

/** The HTTP requests of one call of bench/lib/checkout.mjs (`name`) as tRPC's client with `httpBatchLink` sends them. */
export function trpcRequests(name) {
  return batches(name).map((group) => {
    const path = `/${group.map((call) => `${call.service}.${call.procedure}`).join(',')}?batch=1`;
    const inputs = JSON.stringify(Object.fromEntries(group.map((call, i) => [i, call.input])));
    if (kindOf(group[0]) === 'query') return { method: 'GET', path: `${path}&input=${encodeURIComponent(inputs)}`, headers: {} };
    return postJson(path, inputs);
  });
}

/** The results of the answer texts to `trpcRequests(name)` (joined by newlines), in call order; throws on an error answer. */
export function trpcResults(name, text) {
  const results = [];
  const answers = text.split('\n').map((part) => JSON.parse(part));
  batches(name).forEach((group, g) => {
    group.forEach((call, i) => {
      const answer = answers[g][i];
      if (!answer?.result) throw new Error(`tRPC answered ${call.procedure} with ${JSON.stringify(answer)}`);
      results[call.index] = answer.result.data;
    });
  });
  return results;
}

/**
 * tRPC's own "request in, response text out": `resolveResponse` of `@trpc/server/http`, what its
 * `node:http` adapter calls with the fetch `Request` it builds from the incoming message (a body it
 * was given as text is passed as that text), the response's text read as the adapter streams it.
 * The requests of a call are made at once, as the client sends them; their answers joined by newlines.
 */
export async function trpcTextEntry(handlers) {
  const { resolveResponse } = await import('@trpc/server/http');
  const router = await createRouter(handlers);
  const origin = 'http://127.0.0.1';
  const answer = async (request) => {
    const url = new URL(request.path, origin);
    const req = new Request(url, {
      method: request.method,
      headers: request.headers,
      body: request.method === 'GET' ? undefined : request.body,
    });
    const response = await resolveResponse({
      router,
      req,
      path: url.pathname.slice(1),
      createContext: async () => undefined,
      error: null,
      onError: () => {},
    });
    return response.text();
  };
  return async (requests) => (requests.length === 1 ? answer(requests[0]) : (await Promise.all(requests.map(answer))).join('\n'));
}

/**
 * Makes the call `name` with tRPC's client (`httpBatchLink`) against `origin`; gives the values the
 * client returns and the requests it sent.
 */
export async function trpcClientCall(name, origin) {
  const { createTRPCClient, httpBatchLink } = await import('@trpc/client');
  const sent = [];
  const client = createTRPCClient({ links: [httpBatchLink({ url: origin, fetch: recordingFetch(sent) })] });
  const results = await Promise.all(
    callList(name).map((call) => {
      const procedure = client[call.service][call.procedure];
      return kindOf(call) === 'mutation' ? procedure.mutate(call.input) : procedure.query(call.input);
    }),
  );
  return { results, sent };
}
