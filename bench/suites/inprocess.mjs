/**
 * Server cost without HTTP: each server's own "request text in, response text out" entry (ours:
 * `handleHttp`; json-rpc-2.0: `JSONRPCServer.receiveJSON`; jayson: `Server.call`; the bare-handlers
 * reference: parse, call, stringify; oRPC: the standard handler inside its node adapter; tRPC:
 * `resolveResponse`) on the same handlers and payloads, in this one process. oRPC and tRPC get the
 * requests their own clients send for the same calls (bench/lib/orpc-checkout.mjs, trpc-checkout.mjs).
 *
 * Over HTTP on two cores the load generator shares the cores and two runs of one server differ by
 * about 10%. Here nothing else runs in the process, and rounds are interleaved: every round times
 * every case and server once, for a short budget, in a rotating order, so a slow spell of the
 * machine falls on all of them alike. The table gives the median time per request over rounds
 * with its interquartile range; `info` gives, per row, the median and interquartile range of the
 * per-round ratio (ours and the peer timed in the same round), the steadiest figure for comparing.
 *
 * The middleware rows time our server with one no-op middleware (`(call, next) => next()`) against
 * the same server without any, in the same rounds: the ratio is the cost of the middleware seam.
 *
 * `options.baseline`, a directory holding another built checkout of this package (its `dist/`
 * and `bench/`), adds that checkout's server as one more peer, "ours at baseline": the way to see
 * whether a change to the runtime costs anything, both versions timed in the same rounds.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { catalogSize, comparable, serverCalls } from '../lib/checkout.mjs';
import { microsecondsPerRequest } from '../lib/cpu-per-request.mjs';
import { textEntries } from '../lib/entries.mjs';
import { loadCheckoutHandlers } from '../lib/handlers.mjs';
import { orpcLabel, orpcRequests, orpcResults } from '../lib/orpc-checkout.mjs';
import { jsonRpcResults } from '../lib/peer-calls.mjs';
import { median, quantile } from '../lib/stats.mjs';
import { trpcLabel, trpcRequests, trpcResults } from '../lib/trpc-checkout.mjs';

const peers = [
  { kind: 'bare-handlers', label: 'bare handlers (reference)' },
  { kind: 'jayson', label: 'jayson' },
  { kind: 'json-rpc-2.0', label: 'json-rpc-2.0' },
  { kind: 'orpc', label: orpcLabel },
  { kind: 'trpc', label: trpcLabel },
];

/**
 * The servers with their own protocol: their requests for a call of bench/lib/checkout.mjs, and the
 * results of their answer text in call order (compared with ours' results before timing).
 */
const ownProtocols = {
  orpc: { requests: (call) => orpcRequests(call, 'http://127.0.0.1'), results: (_call, text) => orpcResults(text) },
  trpc: { requests: trpcRequests, results: trpcResults },
};

/** What `kind`'s entry is given for a case: the JSON-RPC body, or its own requests for the same call. */
const requestFor = (kind, testCase) => (ownProtocols[kind] ? ownProtocols[kind].requests(testCase.call) : testCase.body);
const baselinePeer = { kind: 'baseline', label: 'ours at baseline' };
const middlewareKind = 'ours-noop-middleware';

/**
 * The cases: a request body and the handlers it runs on. The checkout service's handlers are all
 * `async`; the plain-value case answers getProduct with a handler that returns its value directly,
 * which is the path where a server can skip promises altogether (ours does).
 */
const cases = [
  { name: 'getProduct', call: 'getProduct', label: 'getProduct', handlers: 'service' },
  { name: 'addToCart', call: 'addToCart', label: 'addToCart', handlers: 'service' },
  { name: 'listProducts', call: 'listProducts', label: `listProducts (${catalogSize} products)`, handlers: 'service' },
  { name: 'batch10', call: 'batch10', label: '10-call batch', handlers: 'service' },
  { name: 'getProductPlain', call: 'getProduct', label: 'getProduct (plain-value handler)', handlers: 'plain' },
].map((testCase) => ({ ...testCase, body: serverCalls[testCase.call] }));

/** The catalog handlers with no promise: products read once from the service, answered as they are. */
async function plainValueHandlers(service) {
  const products = await service.CatalogService.listProducts();
  const byId = new Map(products.map((product) => [product.productId, product]));
  return { CatalogService: { listProducts: () => products, getProduct: (productId) => byId.get(productId) ?? null } };
}

/**
 * Every server must give the same answers before we time them, or the comparison means nothing:
 * the JSON-RPC servers the same answers, the others (`ownProtocols`) the same results as ours.
 */
async function checkSameAnswers(entriesByCase) {
  for (const testCase of cases) {
    const entries = entriesByCase[testCase.name];
    const answers = {};
    for (const [kind, entry] of Object.entries(entries)) {
      const text = await entry(requestFor(kind, testCase));
      answers[kind] = ownProtocols[kind] ? comparable(ownProtocols[kind].results(testCase.call, text)) : comparable(JSON.parse(text));
    }
    const oursResults = comparable(jsonRpcResults(await entries.ours(testCase.body)));
    for (const kind of Object.keys(ownProtocols)) {
      if (kind in answers && answers[kind] !== oursResults) {
        throw new Error(`${kind} answers ${testCase.name} differently from ours:\n${answers[kind]}\n${oursResults}`);
      }
    }
    const [first, ...others] = Object.keys(entries).filter((kind) => !ownProtocols[kind]);
    for (const kind of others) {
      if (answers[kind] !== answers[first]) {
        throw new Error(`${kind} answers ${testCase.name} differently from ${first}:\n${answers[kind]}\n${answers[first]}`);
      }
    }
    if (answers[first].includes('"error"')) throw new Error(`${testCase.name} failed on every server: ${answers[first]}`);
  }
}

/** `median (q1-q3)` of a list of numbers, for the info line. */
function spreadText(values, digits) {
  const f = (x) => x.toFixed(digits);
  return `${f(median(values))} (${f(quantile(values, 0.25))}-${f(quantile(values, 0.75))})`;
}

/**
 * Runs the suite and returns table rows. `options.rounds` rounds of `options.budgetMs` per case and
 * server, after one untimed pass of `options.warmupMs` each; `options.baseline` as above.
 */
export async function runInProcessSuite(options) {
  const { handlers: service, source } = await loadCheckoutHandlers();
  const handlerSets = { service, plain: await plainValueHandlers(service) };
  const comparedPeers = options.baseline ? [...peers, baselinePeer] : peers;
  const kinds = ['ours', middlewareKind, ...comparedPeers.map((peer) => peer.kind)];
  const makers = { ...textEntries };
  if (options.baseline) {
    const baselineEntries = path.join(path.resolve(options.baseline), 'bench', 'lib', 'entries.mjs');
    makers.baseline = (await import(pathToFileURL(baselineEntries).href)).textEntries.ours;
  }

  const entriesBySet = {};
  for (const [set, handlers] of Object.entries(handlerSets)) {
    entriesBySet[set] = {};
    for (const kind of kinds) entriesBySet[set][kind] = await makers[kind](handlers);
  }
  const entriesByCase = Object.fromEntries(cases.map((testCase) => [testCase.name, entriesBySet[testCase.handlers]]));
  await checkSameAnswers(entriesByCase);

  for (const testCase of cases) {
    for (const kind of kinds)
      await microsecondsPerRequest(entriesByCase[testCase.name][kind], requestFor(kind, testCase), options.warmupMs);
  }
  const samples = {};
  for (let round = 0; round < options.rounds; round++) {
    for (const testCase of cases) {
      for (let i = 0; i < kinds.length; i++) {
        const kind = kinds[(i + round) % kinds.length];
        const time = await microsecondsPerRequest(entriesByCase[testCase.name][kind], requestFor(kind, testCase), options.budgetMs);
        (samples[`${testCase.name}/${kind}`] ??= []).push(time);
      }
    }
  }

  const rows = [];
  const ratios = {};
  for (const testCase of cases) {
    const ours = samples[`${testCase.name}/ours`];
    for (const peer of comparedPeers) {
      const theirs = samples[`${testCase.name}/${peer.kind}`];
      const metric = `in-process ${testCase.label} CPU time per request`;
      rows.push({
        group: 'inprocess',
        metric,
        unit: 'us',
        ours: median(ours),
        oursSpread: [quantile(ours, 0.25), quantile(ours, 0.75)],
        peerName: peer.label,
        peer: median(theirs),
        peerSpread: [quantile(theirs, 0.25), quantile(theirs, 0.75)],
        higherIsBetter: false,
      });
      ratios[`${testCase.label} ours/${peer.label}`] = spreadText(
        ours.map((time, round) => time / theirs[round]),
        3,
      );
    }
    const withMiddleware = samples[`${testCase.name}/${middlewareKind}`];
    rows.push({
      group: 'inprocess',
      metric: `in-process ${testCase.label} with one no-op middleware, CPU time per request`,
      unit: 'us',
      ours: median(withMiddleware),
      oursSpread: [quantile(withMiddleware, 0.25), quantile(withMiddleware, 0.75)],
      peerName: 'ours without middleware',
      peer: median(ours),
      peerSpread: [quantile(ours, 0.25), quantile(ours, 0.75)],
      higherIsBetter: false,
    });
    ratios[`${testCase.label} one no-op middleware/none`] = spreadText(
      withMiddleware.map((time, round) => time / ours[round]),
      3,
    );
  }
  return {
    rows,
    info: {
      handlers: source,
      rounds: options.rounds,
      budgetMs: options.budgetMs,
      baseline: options.baseline ?? null,
      perRoundRatio: ratios,
    },
  };
}
